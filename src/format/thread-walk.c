// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "thread-walk.h"

uint64_t kft_walk_count(const struct kft_thread_file *th)
{
	uint64_t n = th->nrecs;

	/* stack-watch rows are rare: only a thread that fired a watch has any */
	if (th->hdr.counters.watch_hits)
		for (uint64_t i = 0; i < th->nrecs; i++) {
			struct kft_rec_data r;

			kft_thread_rec(th, i, &r);
			n -= r.dur == KFT_DUR_WATCH;
		}
	for (uint64_t f = 0; f < th->nframes; f++)
		n += !!(th->frames[f].flags & KFT_FRAME_LOGGED);
	return n;
}

struct walk {
	struct kft_walk_call *stack;
	size_t top, cap;
	uint64_t seen;
	uint64_t total;
	const struct kft_walk_ops *ops;
};

/* Everything c encloses has been seen: its place in entry order follows. */
static int leave(struct walk *w)
{
	struct kft_walk_call *c = &w->stack[--w->top];
	uint64_t size = w->seen - c->seen_at;		/* c and what it encloses */
	uint64_t post = w->total - 1 - c->seen_at;	/* calls that ended before it */

	/* before c in entry order: what ended before its subtree began, and
	 * its ancestors */
	c->pre = post + 1 - size + c->depth;
	if (!w->ops->left)
		return 0;
	return w->ops->left(w->ops->ctx, c, w->top ? &w->stack[w->top - 1] : NULL);
}

static int meet(struct walk *w, const struct kft_walk_call *c)
{
	struct kft_walk_call *top;
	int ret;

	while (w->top) {
		top = &w->stack[w->top - 1];
		if (top->entry_ns <= c->entry_ns && top->rec_depth < c->rec_depth)
			break;
		if ((ret = leave(w)))
			return ret;
	}
	if (w->top == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 64;
		struct kft_walk_call *bigger = realloc(w->stack, cap * sizeof(*bigger));

		if (!bigger)
			return -1;
		w->stack = bigger;
		w->cap = cap;
	}
	top = &w->stack[w->top];
	*top = *c;
	top->depth = w->top;
	top->seen_at = w->seen++;
	w->top++;
	if (w->ops->met)
		return w->ops->met(w->ops->ctx, top, w->top > 1 ? &w->stack[w->top - 2] : NULL);
	return 0;
}

int kft_thread_walk(const struct kft_thread_file *th, const struct kft_walk_ops *ops)
{
	struct walk w = { .ops = ops, .total = kft_walk_count(th) };
	struct kft_walk_call c;
	int ret = 0;

	memset(&c, 0, sizeof(c));
	/* the open frames end last, innermost first: backwards, outermost first */
	for (uint64_t f = 0; f < th->nframes && !ret; f++) {
		const struct kft_frame *fr = &th->frames[f];

		if (!(fr->flags & KFT_FRAME_LOGGED))
			continue;
		c.entry_ns = fr->entry_ns;
		c.dur_ns = -1;
		c.func = fr->func;
		c.call_site = fr->call_site;
		c.rec_depth = (uint32_t)f;
		c.flags = kft_frame_rec_flags(fr);
		c.idx = th->nrecs + f;
		ret = meet(&w, &c);
	}
	for (uint64_t i = th->nrecs; i-- > 0 && !ret;) {
		struct kft_rec_data r;

		kft_thread_rec(th, i, &r);
		if (r.dur == KFT_DUR_WATCH) {
			/* a stack-watch row is no call; one the header does not
			 * count makes the count wrong */
			if (!th->hdr.counters.watch_hits)
				ret = KFT_WALK_CORRUPT;
			continue;
		}
		c.entry_ns = r.entry_ns;
		c.dur_ns = kft_dur_decode(r.dur);
		c.func = r.func;
		c.call_site = r.call_site;
		c.rec_depth = r.depth;
		c.flags = r.flags;
		c.idx = i;
		ret = meet(&w, &c);
	}
	while (w.top && !ret)
		ret = leave(&w);
	free(w.stack);
	return ret;
}
