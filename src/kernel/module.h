/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel through kft.ko (/proc/kft, /proc/kft_data), when it is
 * loaded (module.c). Errors come back as values.
 */
#ifndef KFT_KERNEL_MODULE_H
#define KFT_KERNEL_MODULE_H

#include <stdbool.h>
#include <stdio.h>

#include "../common/error.h"

bool kft_kmod_loaded(void);
/* A config's text or a command (prime, start, stop) to /proc/kft; what
 * names it in the error, which ends with the module's own reasons from
 * the kernel log. */
int kft_kmod_send(const char *text, const char *what, struct kft_error *err);
/* /proc/kft to out, after a line naming the backend */
int kft_kmod_status(FILE *out, struct kft_error *err);
/* /proc/kft_data to out, its addresses named through /proc/kallsyms */
int kft_kmod_data(FILE *out, struct kft_error *err);

#endif
