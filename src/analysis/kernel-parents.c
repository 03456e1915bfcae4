// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "kernel-parents.h"
#include "nest.h"

/* One thread's calls open. */
struct thread_nest {
	uint32_t tid;
	struct kft_nest nest;
};

struct threads {
	struct thread_nest *t;
	size_t n, cap;
};

static struct kft_nest *of_thread(struct threads *ts, uint32_t tid)
{
	for (size_t i = 0; i < ts->n; i++)
		if (ts->t[i].tid == tid)
			return &ts->t[i].nest;
	if (kft_grow((void **)&ts->t, ts->n, &ts->cap, sizeof(*ts->t), 8))
		return NULL;
	memset(&ts->t[ts->n], 0, sizeof(ts->t[ts->n]));
	ts->t[ts->n].tid = tid;
	return &ts->t[ts->n++].nest;
}

int kft_kernel_parents(const struct kft_trace *tr, kft_kernel_parent_fn fn, void *ctx,
		       struct kft_error *err)
{
	struct kft_calls *cs = kft_calls_open(tr, NULL, 0, err);
	struct threads ts = { 0 };
	struct kft_call c;
	int ret = 0;

	if (!cs)
		return -1;
	while (!ret && kft_calls_next(cs, &c) > 0) {
		struct kft_nest *n;
		uint32_t level;

		if (c.dur_ns == -2)
			continue;	/* a stack-watch row */
		if (!(n = of_thread(&ts, c.tid))) {
			ret = kft_error_set(err, "out of memory");
			break;
		}
		/* (a call under a program call goes one deeper than it: what
		 * it is not inside closes, and its parent is the innermost
		 * left open) */
		kft_nest_place(n, &c, &level);
		if ((c.flags & KFT_CALL_UNDER_PROGRAM) && kft_nest_top(n) &&
		    fn(ctx, &kft_nest_top(n)->call, &c))
			ret = kft_error_set(err, "out of memory");
		else if (!kft_nest_push(n, &c, level))
			ret = kft_error_set(err, "out of memory");
	}
	for (size_t i = 0; i < ts.n; i++)
		kft_nest_free(&ts.t[i].nest);
	free(ts.t);
	kft_calls_close(cs);
	return ret;
}
