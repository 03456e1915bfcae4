/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where a call goes in its thread's tree, as the call stream gives them
 * (entry order, each call's depth its number of logged ancestors): under
 * the innermost call still open that is less deep, unless it is a signal
 * handler's call met inside a call of the program, which starts a chain
 * of its own (a root, its time none of the call it interrupted). One
 * stack of open calls per thread; it never holds more than the thread's
 * depth.
 */
#ifndef KFT_NEST_H
#define KFT_NEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../format/reader.h"

struct kft_nest_open {
	struct kft_call call;	/* its depth as the stream gives it */
	uint32_t level;		/* in its tree: 0 at a root */
	/* the view's own, zeroed when pushed */
	uint32_t tag;
	bool mark;
	uint64_t acc;
};

struct kft_nest {
	struct kft_nest_open *open;	/* outermost first */
	size_t n, cap;
};

enum kft_nest_place {
	KFT_NEST_ROOT,		/* nothing open above it */
	KFT_NEST_CHILD,		/* under the innermost call open */
	KFT_NEST_HANDLER,	/* a handler's chain, inside a call it interrupted */
};

/* c comes next in its thread: the calls open that it is not inside are
 * closed, and where it goes is said; *level is its level in its tree
 * (0 unless a child). */
enum kft_nest_place kft_nest_place(struct kft_nest *n, const struct kft_call *c,
				   uint32_t *level);

/* c opened at level: it, or NULL out of memory. */
struct kft_nest_open *kft_nest_push(struct kft_nest *n, const struct kft_call *c,
				    uint32_t level);

/* The innermost call open, or NULL. */
static inline const struct kft_nest_open *kft_nest_top(const struct kft_nest *n)
{
	return n->n ? &n->open[n->n - 1] : NULL;
}

/* The innermost call open if c, next in its thread, is not inside it
 * (c closes it: take it with kft_nest_pop), else NULL. */
static inline const struct kft_nest_open *kft_nest_closes(const struct kft_nest *n,
							  const struct kft_call *c)
{
	const struct kft_nest_open *top = kft_nest_top(n);

	return top && top->call.depth >= c->depth ? top : NULL;
}

static inline void kft_nest_pop(struct kft_nest *n)
{
	n->n--;
}

/* Every call closed, for another thread or chain. */
static inline void kft_nest_reset(struct kft_nest *n)
{
	n->n = 0;
}

void kft_nest_free(struct kft_nest *n);

#endif
