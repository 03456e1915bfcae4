/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The nesting of one thread's logged calls, found in one backward pass.
 *
 * Records are written when calls end, so read backwards a call comes
 * before everything it encloses. A call's logged parent is the innermost
 * logged call that was entered no later and is recorded deeper: kept on a
 * stack, that stack never holds more than the thread's depth. Depth alone
 * is not enough: under a funclist, a trigger or a duration filter a
 * call's own parents may not be logged, and the nearest logged call above
 * it in the file is then not its parent at all.
 *
 * The pass visits each call twice: when it is met (its logged ancestors
 * are on the stack) and when it is left (everything it encloses has been
 * seen). Both callbacks get the call and its logged parent.
 */
#ifndef KFT_THREAD_WALK_H
#define KFT_THREAD_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "reader.h"

struct kft_walk_call {
	uint64_t entry_ns;
	int64_t dur_ns;		/* -1: still open at the end */
	uint64_t func;
	uint64_t call_site;
	uint32_t rec_depth;	/* as recorded (the runtime's depth) */
	uint32_t flags;		/* KFT_REC_* */
	uint64_t idx;		/* i < nrecs: record i; else open frame idx - nrecs */
	uint64_t depth;		/* logged ancestors */
	uint64_t pre;		/* position in entry order (set when left) */
	uint64_t nested;	/* the logged calls it encloses (set when left) */
	uint64_t seen_at;	/* calls met before it */
	/* for the caller's use: zeroed when met */
	int64_t acc;
	uint32_t tag;
	uint32_t mark;
};

struct kft_walk_ops {
	/* both may be NULL; a non-zero return stops the walk with it */
	int (*met)(void *ctx, struct kft_walk_call *c, struct kft_walk_call *parent);
	int (*left)(void *ctx, struct kft_walk_call *c, struct kft_walk_call *parent);
	void *ctx;
	bool inherited;	/* the calls the image began inside come first
			 * (idx nrecs + nframes + i, dur -1, flags with
			 * KFT_CALL_INHERITED), its own calls under them */
	uint64_t *inherited_ns;	/* if not NULL: set to the moment they are
				 * shown at (an exec'd image's first call) */
};

/* Whether c counts in its logged parent's time: a signal handler's chain
 * is a root of its own, not part of the call it interrupted. */
static inline bool kft_walk_is_child(const struct kft_walk_call *c,
				     const struct kft_walk_call *parent)
{
	return parent && ((parent->flags & KFT_REC_SIGNAL) || !(c->flags & KFT_REC_SIGNAL));
}

/* Calls of th the walk visits: records and logged open frames (a
 * stack-watch row is no call: the walk passes over it), and with
 * inherited, the calls the image began inside, if it made any. */
uint64_t kft_walk_count(const struct kft_thread_file *th, bool inherited);

/* A stack-watch row in a thread whose header counts no watch firing. */
#define KFT_WALK_CORRUPT	(-2)

/*
 * Walk th. Returns 0, -1 out of memory, KFT_WALK_CORRUPT, or what a
 * callback returned.
 */
int kft_thread_walk(const struct kft_thread_file *th, const struct kft_walk_ops *ops);

#endif
