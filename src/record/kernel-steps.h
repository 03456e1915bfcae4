/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel session's steps that `kft record --kernel` (kernel-run.c)
 * and the seed's step-by-step `kft kernel` (cli/cmd-kernel.c) share:
 * taking the kernel and the trace directory, and priming a run that
 * later commands start, stop and read; the steps of `kft kernel`.
 */
#ifndef KFT_KERNEL_STEPS_H
#define KFT_KERNEL_STEPS_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/error.h"
#include "../config/config.h"
#include "../kernel/session.h"

/* What the user is told on the way, a line at a time. */
typedef void (*kft_say_fn)(void *ctx, const char *line);

/* The kernel taken for a session of kft's (one a killed kft left is put
 * back first, and said), then the trace directory dir made for cfg's
 * run (mode: KFT_MODE_* it adds). 0, or -1 with err set. */
int kft_kernel_take_into(const char *dir, const struct kft_config *cfg, uint32_t mode,
			 kft_say_fn say, void *ctx, struct kft_error *err);

/* `kft kernel prime`: cfg (from config_path, for messages) checked, the
 * kernel and dir taken, the run armed; a helper process keeps cfg's time
 * triggers while the session stays primed. 0, or -1 with err set. */
int kft_kernel_prime(const char *dir, struct kft_config *cfg, const char *config_path,
		     kft_say_fn say, void *ctx, struct kft_error *err);

/* Whether `kft kernel prime` left a session armed (its journal is held
 * by no process). */
bool kft_kernel_primed(void);

/* `kft kernel start`: the primed session's tracing on. 0, or -1 with err
 * set. */
int kft_kernel_start(struct kft_error *err);

/* `kft kernel stop`: the session kft_kernel_primed says is primed (of
 * cfg) stopped, its trace
 * collected into dir and every setting restored; what it holds in *res. */
int kft_kernel_stop(const char *dir, const struct kft_config *cfg, struct kft_kernel_result *res,
		    struct kft_error *err);

/* `kft kernel data --from-boot`: what ftrace traced since boot (cfg's
 * boot command line) into the trace dir; what it holds in *res. */
int kft_kernel_from_boot(const char *dir, const struct kft_config *cfg, kft_say_fn say,
			 void *ctx, struct kft_kernel_result *res, struct kft_error *err);

/* `kft kernel reset`: whatever a session left set, restored. */
int kft_kernel_reset(struct kft_error *err);

#endif
