/* SPDX-License-Identifier: GPL-2.0-only */
/* Built-in args specs of the C library's common functions (kft record -a). */
#ifndef KFT_LIBC_PARAMS_H
#define KFT_LIBC_PARAMS_H

#include <stddef.h>

/* name's spec ("arg1/s,arg2/x,retval/d32"), or NULL if the table has none. */
const char *kft_libc_params(const char *name);
/* The table's entries, for walking it (and testing it). */
size_t kft_libc_params_count(void);
const char *kft_libc_params_name(size_t i);

#endif
