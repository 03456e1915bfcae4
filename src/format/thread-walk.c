// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "thread-records.h"
#include "thread-walk.h"

uint64_t kft_walk_count(const struct kft_thread_file *th, bool inherited)
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
	/* an image that made no call of its own has nothing to draw
	 * under them (a fork child that exec'd at once) */
	return n + (inherited && n ? th->ninherited : 0);
}

struct walk {
	struct kft_walk_call *stack;
	size_t top, cap;
	uint64_t seen;
	uint64_t total;
	const struct kft_walk_ops *ops;
	/* a fork child's inherited calls, when asked: the earliest entry
	 * of a call made after the child returned through each (UINT64_MAX:
	 * it never did), and the next to meet */
	const struct kft_thread_file *th;
	uint64_t *left_at;
	uint64_t next_inherited;
	uint32_t shift;		/* an exec'd image's depths: under them all */
	uint64_t inherited_ns;	/* when they are shown to begin */
};

/*
 * When the child returned through each inherited call: before the first
 * call of its own that is no deeper (inherited i is at depth d_i, and
 * d_0 < d_1 < ...). NULL: out of memory.
 */
static uint64_t *inherited_ends(const struct kft_thread_file *th, uint32_t shift,
				uint64_t *first_ns)
{
	uint64_t n = th->ninherited, *at = malloc(n * sizeof(*at));
	uint32_t *depth = malloc(n * sizeof(*depth));

	if (!at || !depth) {
		free(at);
		free(depth);
		return NULL;
	}
	for (uint64_t i = 0; i < n; i++) {
		struct kft_rec_data r;

		kft_thread_inherited(th, i, &r);
		depth[i] = r.depth;
		at[i] = UINT64_MAX;
	}
	/* at[i] first holds the earliest call no deeper than d_i but deeper
	 * than d_(i-1); the minimum over i' <= i follows */
	for (uint64_t k = 0; k < th->nrecs + th->nframes; k++) {
		uint64_t entry, i = 0;
		uint32_t d;

		if (k < th->nrecs) {
			struct kft_rec_data r;

			kft_thread_rec(th, k, &r);
			if (r.dur == KFT_DUR_WATCH)
				continue;
			entry = r.entry_ns;
			d = r.depth;
		} else {
			if (!(th->frames[k - th->nrecs].flags & KFT_FRAME_LOGGED))
				continue;
			entry = th->frames[k - th->nrecs].entry_ns;
			d = (uint32_t)(k - th->nrecs);
		}
		if (entry < *first_ns)
			*first_ns = entry;
		d += shift;
		while (i < n && depth[i] < d)
			i++;
		if (i < n && entry < at[i])
			at[i] = entry;
	}
	for (uint64_t i = 1; i < n; i++)
		if (at[i - 1] < at[i])
			at[i] = at[i - 1];
	free(depth);
	return at;
}

/* Everything c encloses has been seen: its place in entry order follows. */
static int leave(struct walk *w)
{
	struct kft_walk_call *c = &w->stack[--w->top];
	uint64_t size = w->seen - c->seen_at;		/* c and what it encloses */
	uint64_t post = w->total - 1 - c->seen_at;	/* calls that ended before it */

	/* before c in entry order: what ended before its subtree began, and
	 * its ancestors */
	c->pre = post + 1 - size + c->depth;
	c->nested = size - 1;
	if (!w->ops->left)
		return 0;
	return w->ops->left(w->ops->ctx, c, w->top ? &w->stack[w->top - 1] : NULL);
}

static int meet_call(struct walk *w, const struct kft_walk_call *c);

/* The inherited calls that ended (the child returned through them) after
 * a call entered at entry_ns: backwards, they come before it. */
static int meet_inherited(struct walk *w, uint64_t entry_ns)
{
	int ret = 0;

	while (!ret && w->next_inherited < w->th->ninherited &&
	       entry_ns < w->left_at[w->next_inherited]) {
		uint64_t i = w->next_inherited++;
		struct kft_walk_call c = { 0 };
		struct kft_rec_data r;

		kft_thread_inherited(w->th, i, &r);
		c.entry_ns = w->inherited_ns;
		c.dur_ns = -1;
		c.func = r.func;
		c.call_site = r.call_site;
		c.rec_depth = r.depth;
		c.flags = r.flags | KFT_CALL_INHERITED;
		c.idx = w->th->nrecs + w->th->nframes + i;
		ret = meet_call(w, &c);
	}
	return ret;
}

static int meet(struct walk *w, const struct kft_walk_call *c)
{
	int ret = w->left_at ? meet_inherited(w, c->entry_ns) : 0;

	return ret ? ret : meet_call(w, c);
}

static int meet_call(struct walk *w, const struct kft_walk_call *c)
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
	struct walk w = { .ops = ops, .total = kft_walk_count(th, ops->inherited) };
	struct kft_walk_call c;
	int ret = 0;

	memset(&c, 0, sizeof(c));
	if (ops->inherited && th->ninherited && w.total > kft_walk_count(th, false)) {
		uint64_t first = UINT64_MAX;

		w.th = th;
		w.shift = th->inherited_exec ? (uint32_t)th->ninherited : 0;
		if (!(w.left_at = inherited_ends(th, w.shift, &first)))
			return -1;
		/* a fork child's are shown at the fork, an exec'd image's
		 * where it began (its first call) */
		w.inherited_ns = th->inherited_exec ? first : th->hdr.forked_ns;
		if (ops->inherited_ns)
			*ops->inherited_ns = w.inherited_ns;
	}
	/* the open frames end last, innermost first: backwards, outermost first */
	for (uint64_t f = 0; f < th->nframes && !ret; f++) {
		const struct kft_frame *fr = &th->frames[f];

		if (!(fr->flags & KFT_FRAME_LOGGED))
			continue;
		c.entry_ns = fr->entry_ns;
		c.dur_ns = -1;
		c.func = fr->func;
		c.call_site = fr->call_site;
		c.rec_depth = (uint32_t)f + w.shift;
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
		c.rec_depth = r.depth + w.shift;
		c.flags = r.flags;
		c.idx = i;
		ret = meet(&w, &c);
	}
	if (w.left_at && !ret)
		ret = meet_inherited(&w, 0);	/* those never returned through */
	while (w.top && !ret)
		ret = leave(&w);
	free(w.left_at);
	free(w.stack);
	return ret;
}
