/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The C library's names for what the kernel has, so that kft's config
 * parser (src/config/config.c) builds into the module unchanged.
 */
#ifndef KFT_LIBC_H
#define KFT_LIBC_H

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>

#define malloc(n)		kmalloc(n, GFP_KERNEL)
#define calloc(n, size)		kcalloc(n, size, GFP_KERNEL)
#define realloc(p, n)		krealloc(p, n, GFP_KERNEL)
#define free(p)			kfree(p)
#define strdup(s)		kstrdup(s, GFP_KERNEL)
#define PRIu64			"llu"
#define PRIx64			"llx"
#define UINT64_MAX		U64_MAX
#define UINT32_MAX		U32_MAX

#endif
