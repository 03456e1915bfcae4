/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KFT_FORMAT_KERNEL_JOIN_H
#define KFT_FORMAT_KERNEL_JOIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader.h"

/*
 * A thread traced in both the program and the kernel: each kernel call
 * goes under the innermost program call not ended when it began (the one
 * that made the system call). Both sides use CLOCK_MONOTONIC, so the
 * times decide. The trace's call stream (trace-stream.c) and a thread's
 * joined files (thread-stream.c) both nest by this one rule: fed the
 * thread's calls in the stream's order, it keeps the program calls open.
 */
struct kft_kernel_join {
	struct kft_join_open {
		uint32_t depth;
		uint64_t end;
	} *open;
	size_t n, cap;
	uint32_t session;	/* of the latest program call; 0: none yet */
};

/* Program call c begins (what it is not inside has ended). 0, or -1
 * out of memory. */
int kft_kernel_join_program(struct kft_kernel_join *j, const struct kft_call *c);

/* Kernel call c begins: whether a program call holds it, and then the
 * depth c's depth is counted from (one deeper than its parent's) in
 * *base. */
bool kft_kernel_join_parent(struct kft_kernel_join *j, const struct kft_call *c,
			    uint32_t *base);

void kft_kernel_join_free(struct kft_kernel_join *j);

#endif
