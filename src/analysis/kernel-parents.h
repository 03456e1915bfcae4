/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * In a trace where a thread was traced in the program and in the kernel
 * (kft record --kernel with an instrumented program), each kernel call
 * the kernel logged with no parent of its own runs under the innermost
 * program call open when it began: that call made it (a system call).
 * The call stream puts it there (KFT_CALL_UNDER_PROGRAM); the views that
 * read each thread file alone learn those pairs here, in one pass over
 * the stream that keeps each thread's open calls (nest.h).
 */
#ifndef KFT_KERNEL_PARENTS_H
#define KFT_KERNEL_PARENTS_H

#include "../format/call-stream.h"

/* parent: the program call, as its thread file has it (its depth, its
 * process image); child: the kernel call. 0 to go on, -1 to stop. */
typedef int (*kft_kernel_parent_fn)(void *ctx, const struct kft_call *parent,
				    const struct kft_call *child);

/* Every such pair of tr, in entry order of the children. 0, or -1 with
 * err set (or the callback's -1: "out of memory"). */
int kft_kernel_parents(const struct kft_trace *tr, kft_kernel_parent_fn fn, void *ctx,
		       struct kft_error *err);

#endif
