/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kft record -p PID: a running process, built with
 * -fpatchable-function-entry=5 or without instrumentation, joins a trace
 * and is let go again (attach.c). Errors come back as values.
 */
#ifndef KFT_RECORD_ATTACH_H
#define KFT_RECORD_ATTACH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "../common/error.h"
#include "../config/config.h"

struct kft_patch_plans;

/* Lay out dir for a run of cfg and have process pid (its program exe)
 * load the runtime into it: its calls are traced from here on. exe is
 * patchable, or built without instrumentation and plans says how to
 * patch it, and the libraries it names (the functions a thread is found
 * inside are left out of them). */
int kft_attach_begin(pid_t pid, const char *exe, const char *dir, const struct kft_config *cfg,
		     bool primed, uint32_t mode, uint64_t max_size, struct kft_patch_plans *plans,
		     struct kft_error *err);

enum kft_attach_end {
	KFT_ATTACH_DETACHED,		/* it runs on untraced */
	KFT_ATTACH_EXITED,		/* it ended while traced */
	KFT_ATTACH_EXITED_DETACHING,	/* it ended as it was let go */
	KFT_ATTACH_DETACHING,		/* it did not say it was let go in time: *err says */
	KFT_ATTACH_FAILED,		/* *err says why */
};

/* Until *interrupted, the run's end or the process's; then stop the run
 * and let the process go: its entries NOPs again. The trace's info file
 * says how it ended. */
enum kft_attach_end kft_attach_follow(pid_t pid, const char *exe, const char *dir,
				      const volatile sig_atomic_t *interrupted,
				      struct kft_error *err);

#endif
