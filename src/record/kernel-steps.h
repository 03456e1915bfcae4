/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel session's steps that `kft record --kernel` (kernel-run.c)
 * and the seed's step-by-step `kft kernel` (cli/cmd-kernel.c) share:
 * taking the kernel and the trace directory, and priming a run that
 * later commands start, stop and read.
 */
#ifndef KFT_KERNEL_STEPS_H
#define KFT_KERNEL_STEPS_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/error.h"
#include "../config/config.h"

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

#endif
