/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kft record --kernel: arm ftrace for the config, run CMD (or wait for
 * Ctrl-C or the stop trigger), turn ftrace's records into the trace, and
 * put every tracefs setting back, whatever happens in between. CMD's own
 * calls are recorded too when it is instrumented.
 */
#ifndef KFT_KERNEL_RUN_H
#define KFT_KERNEL_RUN_H

#include <stdbool.h>

#include "../common/error.h"
#include "../config/config.h"
#include "kernel-steps.h"

struct kft_kernel_run {
	struct kft_config *cfg;		/* loaded, with the options' selections:
					 * kft_kernel_run releases it */
	const char *config;		/* the config's file, for messages, or NULL */
	const char *dir;		/* the trace directory */
	bool compensate, irqs, switches;
	int argc;			/* CMD, or none: until Ctrl-C or the stop */
	char **argv;			/* trigger */
	/* what the user is told on the way, a line at a time: notes, and
	 * errors that cost the trace nothing (the info file, a restore
	 * after the run) */
	kft_say_fn say;
	void *ctx;
};

/* 0 with *status kft record's exit status (CMD's, 128 + N when signal N
 * ended it, 0 for a system-wide trace), or -1 with err set. */
int kft_kernel_run(const struct kft_kernel_run *r, int *status, struct kft_error *err);

#endif
