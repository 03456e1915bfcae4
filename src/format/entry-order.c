// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "entry-order.h"
#include "thread-records.h"
#include "thread-walk.h"

/*
 * Local: the duration less the finished children's, at least 0. Kept in
 * usec, which is what kd prints, in 32 bits: 71 minutes.
 */
#define LOCAL_UNFINISHED UINT32_MAX
#define LOCAL_MAX_US (UINT32_MAX - 1)

/* Local in usec as the source keeps it, from ns (-1: unfinished). */
static uint32_t source_local(int64_t local_ns)
{
	if (local_ns < 0)
		return LOCAL_UNFINISHED;
	return local_ns / 1000 > LOCAL_MAX_US ? LOCAL_MAX_US : (uint32_t)(local_ns / 1000);
}

/* What place() returns when a Local could not be written. */
#define SPILL_FAILED (-100)

/* *a: a new spill array of n values; 0, or -1 with err set (*a NULL). */
static int new_array(struct kft_spill32 **a, uint64_t n, struct kft_error *err)
{
	if (!(*a = malloc(sizeof(**a))))
		return kft_error_set(err, "out of memory");
	if (kft_spill32_init(*a, n, err)) {
		free(*a);
		*a = NULL;
		return -1;
	}
	return 0;
}

/* Room for s's record index, and its depths and Locals as keep asks. */
static int new_arrays(struct kft_source *s, bool depth, bool local, struct kft_error *err)
{
	return new_array(&s->idx, s->n, err) || (depth && new_array(&s->depth, s->n, err)) ||
	       (local && new_array(&s->local, s->n, err)) ? -1 : 0;
}

int kft_source_want_locals(struct kft_source *s, struct kft_error *err)
{
	return new_array(&s->local, s->n, err);
}

int kft_source_check(const struct kft_source *s, struct kft_error *err)
{
	return (s->idx && kft_spill32_check(s->idx, err)) ||
	       (s->depth && kft_spill32_check(s->depth, err)) ||
	       (s->local && kft_spill32_check(s->local, err)) ? -1 : 0;
}

int kft_source_set_local(struct kft_source *s, uint64_t pos, int64_t local_ns)
{
	return kft_spill32_set(s->local, pos, source_local(local_ns));
}

/* The walk leaves calls in reverse entry order: the Locals go to their
 * array (and its file) from the end to the start. */
static int note_local(struct kft_source *s, struct kft_walk_call *c, struct kft_walk_call *parent)
{
	int64_t local = c->dur_ns - c->acc;

	if (c->dur_ns > 0 && kft_walk_is_child(c, parent))
		parent->acc += c->dur_ns;
	return kft_source_set_local(s, c->pre, c->dur_ns < 0 ? -1 : local < 0 ? 0 : local);
}

static int place(void *ctx, struct kft_walk_call *c, struct kft_walk_call *parent)
{
	struct kft_source *s = ctx;

	if (c->pre >= s->n)
		return KFT_WALK_CORRUPT;
	if (kft_spill32_set(s->idx, c->pre, (uint32_t)c->idx))
		return SPILL_FAILED;
	if (s->depth && kft_spill32_set(s->depth, c->pre, (uint32_t)c->depth))
		return SPILL_FAILED;
	if (s->local && note_local(s, c, parent))
		return SPILL_FAILED;
	return 0;
}

/* The stack-watch rows, each chain (outermost frame first) at its time. */
static int find_watch_rows(struct kft_source *s)
{
	const struct kft_thread_file *th = s->th;
	uint64_t chain = UINT64_MAX, cap = 0;

	for (uint64_t i = 0; i < th->nrecs; i++) {
		struct kft_rec_data r;
		bool watch;

		kft_thread_rec(th, i, &r);
		watch = r.dur == KFT_DUR_WATCH;
		if (chain != UINT64_MAX && (!watch || r.depth == 0)) {
			for (uint64_t k = chain; k < s->nwatch; k++)
				s->watch[k].order_ns = s->watch[s->nwatch - 1].order_ns;
			chain = UINT64_MAX;
		}
		if (!watch)
			continue;
		if (s->nwatch == cap) {
			struct kft_watch_row *bigger;

			cap = cap ? 2 * cap : 64;
			bigger = realloc(s->watch, cap * sizeof(*bigger));
			if (!bigger)
				return -1;
			s->watch = bigger;
		}
		if (chain == UINT64_MAX)
			chain = s->nwatch;
		s->watch[s->nwatch].rec = i;
		s->watch[s->nwatch++].order_ns = r.entry_ns;
	}
	if (chain != UINT64_MAX)
		for (uint64_t k = chain; k < s->nwatch; k++)
			s->watch[k].order_ns = s->watch[s->nwatch - 1].order_ns;
	return 0;
}

int kft_source_open(struct kft_source *s, const struct kft_thread_file *th, unsigned int keep,
		    struct kft_error *err)
{
	struct kft_walk_ops ops = { .left = place, .ctx = s,
				    .inherited = keep & KFT_SOURCE_INHERITED,
				    .inherited_ns = &s->inherited_ns };
	int ret;

	s->th = th;
	s->n = kft_walk_count(th, ops.inherited);
	if (s->n >= UINT32_MAX)
		return kft_error_set(err, "%s: %llu calls in one thread: more than this kft reads",
				     th->name, (unsigned long long)s->n);
	if (new_arrays(s, keep & KFT_SOURCE_DEPTH, keep & KFT_SOURCE_LOCAL, err))
		return -1;
	ret = kft_thread_walk(th, &ops);
	if (ret == KFT_WALK_CORRUPT)
		return kft_error_set(err, "%s: corrupt: stack-watch rows the header does not count",
				     th->name);
	if (ret == SPILL_FAILED)
		return kft_source_check(s, err);
	s->local_ready = s->local != NULL;
	if (ret || (th->hdr.counters.watch_hits && find_watch_rows(s)))
		return kft_error_set(err, "out of memory");
	return 0;
}

int kft_source_subset(struct kft_source *dst, struct kft_source *src,
		      struct kft_spill32 *owner, uint32_t who, struct kft_error *err)
{
	uint64_t n = 0;

	memset(dst, 0, sizeof(*dst));
	dst->th = src->th;
	dst->inherited_ns = src->inherited_ns;
	for (uint64_t p = 0; p < src->n; p++)
		n += kft_spill32_get(owner, p) == who;
	dst->n = n;
	if (new_arrays(dst, src->depth, src->local, err))
		return -1;
	n = 0;
	for (uint64_t p = 0; p < src->n; p++) {
		if (kft_spill32_get(owner, p) != who)
			continue;
		if (kft_spill32_set(dst->idx, n, kft_spill32_get(src->idx, p)) ||
		    (src->depth &&
		     kft_spill32_set(dst->depth, n, kft_spill32_get(src->depth, p))) ||
		    (src->local &&
		     kft_spill32_set(dst->local, n, kft_spill32_get(src->local, p))))
			return kft_source_check(dst, err);
		n++;
	}
	if (kft_spill32_check(owner, err) || kft_source_check(src, err) ||
	    kft_source_check(dst, err))
		return -1;
	dst->local_ready = src->local_ready;
	return 0;
}

void kft_source_call(const struct kft_source *s, uint64_t pos, struct kft_call *c)
{
	kft_thread_call(s->th, kft_spill32_get(s->idx, pos),
			s->depth ? kft_spill32_get(s->depth, pos) : 0, c);
	if (c->flags & KFT_CALL_INHERITED)
		c->entry_ns = s->inherited_ns;	/* the walk found when */
}

/* Take the thread's next call (or watch row) as its head. */
void kft_source_advance(struct kft_source *s)
{
	bool call = s->pos < s->n, watch = s->wpos < s->nwatch;

	if (call)
		kft_source_call(s, s->pos, &s->head);
	if (watch) {
		const struct kft_watch_row *w = &s->watch[s->wpos];
		struct kft_rec_data r;

		kft_thread_rec(s->th, w->rec, &r);
		if (!call || w->order_ns < s->head.entry_ns ||
		    (w->order_ns == s->head.entry_ns && r.depth <= s->head.depth)) {
			kft_thread_call(s->th, w->rec, r.depth, &s->head);
			s->head_key = w->order_ns;
			s->wpos++;
			s->has_head = true;
			return;
		}
	}
	s->has_head = call;
	if (call) {
		s->head_key = s->head.entry_ns;
		if (s->local_ready) {
			uint32_t us = kft_spill32_get(s->local, s->pos);

			s->head_local = us == LOCAL_UNFINISHED ? -1 : (int64_t)us * 1000;
		}
		s->pos++;
	}
}

void kft_source_close(struct kft_source *s)
{
	if (s->idx)
		kft_spill32_free(s->idx);
	free(s->idx);
	if (s->depth)
		kft_spill32_free(s->depth);
	free(s->depth);
	if (s->local)
		kft_spill32_free(s->local);
	free(s->local);
	free(s->watch);
}
