/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A KFT config as the kernel's command line: ftrace's boot parameters
 * that perform its trace while the kernel boots (KFT's boot traces), and
 * what of it cannot be said there.
 */
#ifndef KFT_BOOT_ARGS_H
#define KFT_BOOT_ARGS_H

#include <stdio.h>

#include "../config/config.h"

/* The parameters, space-separated on one line, into args; a line for each
 * config word the command line cannot carry, with why and what to do,
 * into notes. */
void kft_boot_args(const struct kft_config *cfg, FILE *args, FILE *notes);

/* ftrace's buffer for cfg, in KiB per CPU (kft record --kernel's too). */
unsigned long long kft_kernel_buffer_kb(const struct kft_config *cfg);

#endif
