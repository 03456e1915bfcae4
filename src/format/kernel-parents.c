// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "kernel-parents.h"

/* One thread's program calls open, innermost last. */
struct open_calls {
	uint32_t tid;
	struct kft_call *v;
	size_t n, cap;
};

struct threads {
	struct open_calls *t;
	size_t n, cap;
};

static struct open_calls *of_thread(struct threads *ts, uint32_t tid)
{
	for (size_t i = 0; i < ts->n; i++)
		if (ts->t[i].tid == tid)
			return &ts->t[i];
	if (kft_grow((void **)&ts->t, ts->n, &ts->cap, sizeof(*ts->t), 8))
		return NULL;
	memset(&ts->t[ts->n], 0, sizeof(ts->t[ts->n]));
	ts->t[ts->n].tid = tid;
	return &ts->t[ts->n++];
}

static uint64_t end_of(const struct kft_call *c)
{
	return c->dur_ns < 0 ? UINT64_MAX : c->entry_ns + (uint64_t)c->dur_ns;
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
		struct open_calls *o;

		if (c.dur_ns == -2)
			continue;	/* a stack-watch row */
		if (!(o = of_thread(&ts, c.tid))) {
			ret = kft_error_set(err, "out of memory");
			break;
		}
		/* as kft_calls nests them: a program call's ancestors are the
		 * open calls less deep; a kernel call's parent the innermost
		 * program call not yet ended */
		if (!(c.flags & KFT_REC_KERNEL)) {
			while (o->n && o->v[o->n - 1].depth >= c.depth)
				o->n--;
			if (kft_grow((void **)&o->v, o->n, &o->cap, sizeof(*o->v), 64)) {
				ret = kft_error_set(err, "out of memory");
				break;
			}
			o->v[o->n++] = c;
			continue;
		}
		while (o->n && end_of(&o->v[o->n - 1]) <= c.entry_ns)
			o->n--;
		/* the stream put it one deeper than its parent if it has no
		 * kernel parent of its own */
		if (o->n && c.depth == o->v[o->n - 1].depth + 1 && fn(ctx, &o->v[o->n - 1], &c))
			ret = kft_error_set(err, "out of memory");
	}
	for (size_t i = 0; i < ts.n; i++)
		free(ts.t[i].v);
	free(ts.t);
	kft_calls_close(cs);
	return ret;
}
