/* SPDX-License-Identifier: GPL-2.0-only */
/* kft kernel on kft.ko (/proc/kft, /proc/kft_data) when it is loaded. */
#ifndef KFT_CLI_KERNEL_MODULE_H
#define KFT_CLI_KERNEL_MODULE_H

#include <stdbool.h>

bool kft_cli_kernel_module_loaded(void);
/* A config's text or a command (prime, start, stop) to /proc/kft; what
 * names it in the error. */
int kft_cli_kernel_module_send(const char *text, const char *what);
/* /proc/kft, after a line naming the backend */
int kft_cli_kernel_module_status(void);
/* /proc/kft_data, its addresses named through /proc/kallsyms */
int kft_cli_kernel_module_data(void);

#endif
