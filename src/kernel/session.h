/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One kernel tracing session, shared by `kft record --kernel` and
 * `kft kernel prime|stop`: check, arm (journaled), collect, restore.
 * Only one session at a time: ftrace's function tracers are global.
 * Errors are values; what the caller should say besides comes back in
 * the results.
 */
#ifndef KFT_KERNEL_SESSION_H
#define KFT_KERNEL_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../common/error.h"
#include "../config/config.h"
#include "ftrace-collect.h"
#include "ftrace-setup.h"

/* $KFT_KERNEL_STATE, or /run/kft: the journal, and for `kft kernel`
 * its config and trace. The path of each name stays valid. */
const char *kft_kernel_state_path(const char *name);

/* Probe the kernel and check cfg against it (nothing is changed); on
 * failure k is released. */
int kft_kernel_session_check(struct kft_kernel *k, struct kft_config *cfg, const char *origin,
			     struct kft_error *err);

/* Restore what a kft that died left behind; refuse if a live kft or a
 * primed `kft kernel` session holds the kernel. *left_behind: the pid of
 * the dead kft whose settings were restored, else 0. */
int kft_kernel_session_take(pid_t *left_behind, struct kft_error *err);

/* Journal and arm; on failure everything is put back. owner: the pid
 * that will restore (0: a later `kft kernel stop`). */
int kft_kernel_session_arm(struct kft_kernel *k, const struct kft_config *cfg, pid_t follow,
			   pid_t owner, struct kft_error *err);

/* Tracing off, the buffer into the trace dir, the kernel restored (also
 * when collecting failed). by_trigger: the stop trigger (not the user)
 * ended the run. */
int kft_kernel_session_finish(struct kft_kernel *k, const char *dir, const struct kft_config *cfg,
			      bool by_trigger, struct kft_kernel_result *res,
			      struct kft_error *err);

/* What ftrace traced since boot (ftrace's boot parameters, kft kernel
 * bootargs): tracing off, the buffer into dir (made with config and
 * control), times since boot. */
int kft_kernel_session_collect_boot(struct kft_kernel *k, const char *dir,
				    const struct kft_config *cfg, struct kft_kernel_result *res,
				    struct kft_error *err);

/* Put the kernel back as the journal says (nothing to do without one). */
int kft_kernel_session_restore(struct kft_error *err);

/* What take did for a kft that died (left_behind, its pid), as one line
 * for the user (no newline). */
void kft_kernel_left_text(pid_t left_behind, char *out, size_t size);

/* What a collection found, as one line for the user (no newline). */
void kft_kernel_result_text(const struct kft_kernel_result *res, const char *dir, bool since_boot,
			    char *out, size_t size);

/* Time triggers: when to turn tracing on or off, in CLOCK_MONOTONIC ns
 * (0: no such trigger). The stop time counts from the start. */
struct kft_kernel_timers {
	uint64_t on_at;
	uint64_t stop_after;
	uint64_t started_at;	/* when tracing was seen on */
	bool was_on;
};

void kft_kernel_timers_init(struct kft_kernel_timers *t, const struct kft_config *cfg,
			    uint64_t t0);

/* Act on the timers and watch tracing_on. Returns true when the run is
 * over (stopped by the stop trigger or the stop time). */
bool kft_kernel_timers_poll(struct kft_kernel_timers *t, const struct kft_kernel *k,
			    const struct kft_config *cfg);

#endif
