/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One kernel tracing session, shared by `kft record --kernel` and
 * `kft kernel prime|stop`: check, arm (journaled), collect, restore.
 * Only one session at a time: ftrace's function tracers are global.
 */
#ifndef KFT_KERNEL_SESSION_H
#define KFT_KERNEL_SESSION_H

#include <stdbool.h>
#include <sys/types.h>

#include "../config/config.h"
#include "../kernel/ftrace-setup.h"

/* $KFT_KERNEL_STATE, or /run/kft: the journal, and for `kft kernel`
 * its config and trace. The path of each name stays valid. */
const char *cli_kernel_state_path(const char *name);

/* Probe the kernel and check cfg against it (nothing is changed). */
int cli_kernel_check(struct kft_kernel *k, struct kft_config *cfg, const char *origin);

/* Restore what a kft that died left behind; refuse if a live kft or a
 * primed `kft kernel` session holds the kernel. */
int cli_kernel_take(void);

/* Journal and arm; on failure everything is put back. owner: the pid
 * that will restore (0: a later `kft kernel stop`). */
int cli_kernel_arm(struct kft_kernel *k, const struct kft_config *cfg, pid_t follow, pid_t owner);

/* Tracing off, the buffer into the trace dir, the kernel restored.
 * stopped_by_trigger: the stop trigger (not the user) ended the run. */
int cli_kernel_finish(struct kft_kernel *k, const char *dir, const struct kft_config *cfg,
		      bool stopped_by_trigger);

/* What ftrace traced since boot (ftrace's boot parameters, kft kernel
 * bootargs): tracing off, the buffer into dir (made with config and
 * control), times since boot. */
int cli_kernel_collect_boot(struct kft_kernel *k, const char *dir, const struct kft_config *cfg);

/* Put the kernel back as the journal says. */
int cli_kernel_restore(void);

/* Time triggers: when to turn tracing on or off, in CLOCK_MONOTONIC ns
 * (0: no such trigger). The stop time counts from the start. */
struct kernel_timers {
	uint64_t on_at;
	uint64_t stop_after;
	uint64_t started_at;	/* when tracing was seen on */
	bool was_on;
};

void cli_kernel_timers_init(struct kernel_timers *t, const struct kft_config *cfg, uint64_t t0);

/* Act on the timers and watch tracing_on. Returns true when the run is
 * over (stopped by the stop trigger or the stop time). */
bool cli_kernel_timers_poll(struct kernel_timers *t, const struct kft_kernel *k,
			    const struct kft_config *cfg);

#endif
