/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How a trace's calls nest: each record carries its depth among the
 * logged calls of its thread (and coroutine stack), so a call's parent is
 * the open call just above it there, whatever filters chose the calls;
 * a call that starts a signal handler is a root of its own. Fed call by
 * call in the stream's order; memory grows with the calls open at once.
 */
#ifndef KFT_DEPTH_NEST_H
#define KFT_DEPTH_NEST_H

#include <stddef.h>
#include <stdint.h>

#include "../format/reader.h"

struct kft_depth_nest {
	struct kft_depth_stack *stacks;
	size_t nstacks;
};

/* Call number row (numbered from 0 in the order fed): its parent row
 * (KFT_NONE for a root) and its depth in the tree. -1 when out of memory. */
int kft_depth_nest_add(struct kft_depth_nest *n, uint32_t row, const struct kft_call *c,
		       uint32_t *parent, uint32_t *depth);
void kft_depth_nest_free(struct kft_depth_nest *n);

#endif
