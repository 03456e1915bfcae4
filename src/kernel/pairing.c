// SPDX-License-Identifier: GPL-2.0-only
#include <stdbool.h>
#include <stdlib.h>
#include <sys/types.h>
#include <string.h>

#include "pairing.h"

static int emit(struct kft_task_out *t, const struct kft_config *cfg, uint64_t entry, uint64_t dur,
		bool unfinished, uint64_t func, uint64_t site, int32_t depth, bool irq)
{
	struct kft_rec_data *r;

	if (!unfinished) {
		if ((cfg->mintime && dur < cfg->mintime * 1000) ||
		    (cfg->maxtime && dur > cfg->maxtime * 1000)) {
			t->c.time_filtered++;
			return 0;
		}
	}
	if (cfg->noints && irq) {
		t->c.noints_filtered++;
		return 0;
	}
	if (cfg->onlyints && !irq) {
		t->c.onlyints_filtered++;
		return 0;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 1024;
		struct kft_rec_data *bigger = realloc(t->recs, cap * sizeof(*bigger));

		if (!bigger)
			return -1;
		t->recs = bigger;
		t->cap = cap;
	}
	r = &t->recs[t->n++];
	r->entry_ns = entry;
	r->func = func;
	r->call_site = site;
	r->dur = unfinished ? KFT_DUR_UNFINISHED : kft_dur_encode(dur);
	r->depth = (uint32_t)depth;
	r->flags = KFT_REC_KERNEL | (irq ? KFT_REC_SIGNAL : 0);
	return 0;
}

/* Whether a probe's address and a traced call's name one function (the
 * two may differ by the endbr64 that starts it). */
static bool same_func(uint64_t a, uint64_t b)
{
	return (a > b ? a - b : b - a) < 16;
}

/* A call's saved values, if it has any (args and ret: NONE or an
 * event's extra): where in t->args, or -1 (none kept, or no memory:
 * *oom). */
static ssize_t keep_args(struct kft_task_out *t, uint64_t entry, uint64_t func, uint64_t args,
			 uint64_t ret, bool *oom)
{
	if (args == KFT_KEV_NONE && ret == KFT_KEV_NONE)
		return -1;
	if (t->nargs == t->args_cap) {
		size_t cap = t->args_cap ? 2 * t->args_cap : 256;
		struct kft_kev_args *bigger = realloc(t->args, cap * sizeof(*bigger));

		if (!bigger) {
			*oom = true;
			return -1;
		}
		t->args = bigger;
		t->args_cap = cap;
	}
	t->args[t->nargs] = (struct kft_kev_args){ entry, func, args, ret };
	return (ssize_t)t->nargs++;
}

/* An ARGS event before its call's entry, taken by the next entry if it
 * is of its function (and dropped by any other). */
struct pending {
	uint64_t at, func;
};

static uint64_t take(struct pending *p, uint64_t func)
{
	uint64_t at = p->at != KFT_KEV_NONE && same_func(p->func, func) ? p->at : KFT_KEV_NONE;

	p->at = KFT_KEV_NONE;
	return at;
}

/* How many calls deep the probes' own handlers may be traced. */
#define PROBE_NESTING 4

/* The innermost open call of func near the top whose slot (frame_args or
 * frame_ret) is free: its depth, or -1. */
static int open_call(const struct kft_task_out *t, uint64_t func, const uint64_t *slot)
{
	for (size_t d = t->top; d-- > 0 && d + PROBE_NESTING >= t->top;)
		if ((t->frames[d].flags & KFT_FRAME_LOGGED) && same_func(t->frames[d].func, func))
			return slot[d] == KFT_KEV_NONE ? (int)d : -1;
	return -1;
}

/* The calls closed last, for a return value that comes after its exit. */
struct closed {
	uint64_t entry, func, args;
	ssize_t at;		/* its t->args, or -1 */
	bool used;		/* has its return value, or was never written */
};

int kft_kernel_pair(const struct kft_kev *ev, size_t n, const struct kft_config *cfg,
		    uint64_t base, struct kft_task_out *t)
{
	struct pending args = { KFT_KEV_NONE, 0 };
	struct closed closed[PROBE_NESTING];
	unsigned int nclosed = 0;
	bool oom = false;

	/* frames[d] is an open call when it is marked logged */
	memset(t->frames, 0, sizeof(t->frames));
	memset(closed, 0, sizeof(closed));
	t->top = 0;
	t->nargs = 0;
	for (size_t i = 0; i < n && !oom; i++) {
		const struct kft_kev *e = &ev[i];
		uint64_t rel = e->ts > base ? e->ts - base : 0;
		int32_t d = e->depth < 0 ? 0 : e->depth;
		int at;

		if (e->type == KFT_KEV_ARGS) {
			if ((at = open_call(t, e->func, t->frame_args)) >= 0)
				t->frame_args[at] = e->extra;
			else
				args = (struct pending){ e->extra, e->func };
		} else if (e->type == KFT_KEV_RETVAL) {
			if ((at = open_call(t, e->func, t->frame_ret)) >= 0) {
				t->frame_ret[at] = e->extra;
				continue;
			}
			for (unsigned int k = 0; k < nclosed && k < PROBE_NESTING; k++) {
				struct closed *c = &closed[(nclosed - 1 - k) % PROBE_NESTING];

				if (c->used || !same_func(c->func, e->func))
					continue;
				c->used = true;
				if (c->at >= 0)
					t->args[c->at].ret = e->extra;
				else
					keep_args(t, c->entry, c->func, c->args, e->extra, &oom);
				break;
			}
		} else if (e->type == KFT_KEV_FUNCTION) {
			size_t had = t->n;

			if (emit(t, cfg, rel, 0, true, e->func, e->extra, 0, e->irq))
				return -1;
			if (t->n > had)
				keep_args(t, rel, e->func, take(&args, e->func), KFT_KEV_NONE, &oom);
		} else if (e->type == KFT_KEV_ENTRY && d < KFT_KEV_MAX_DEPTH) {
			/* open ones this deep or deeper lost their exits: never
			 * closed (above top all frames are clear) */
			if (t->top > (size_t)d)
				memset(&t->frames[d], 0, (t->top - (size_t)d) * sizeof(t->frames[d]));
			t->frames[d].func = e->func;
			t->frames[d].entry_ns = rel;
			t->frames[d].flags = KFT_FRAME_LOGGED | KFT_FRAME_KERNEL |
					     (e->irq ? KFT_FRAME_SIGNAL : 0);
			t->frame_args[d] = take(&args, e->func);
			t->frame_ret[d] = KFT_KEV_NONE;
			t->top = (size_t)d + 1;
		} else if (e->type == KFT_KEV_EXIT) {
			bool paired = d < KFT_KEV_MAX_DEPTH && (t->frames[d].flags & KFT_FRAME_LOGGED) &&
				      t->frames[d].func == e->func;
			uint64_t entry = paired ? t->frames[d].entry_ns :
						  (rel > e->extra ? rel - e->extra : 0);
			uint64_t saved = paired ? t->frame_args[d] : KFT_KEV_NONE;
			uint64_t ret = paired ? t->frame_ret[d] : KFT_KEV_NONE;
			struct closed *c = &closed[nclosed++ % PROBE_NESTING];
			size_t had = t->n;

			if (t->top > (size_t)d) {
				memset(&t->frames[d], 0, (t->top - (size_t)d) * sizeof(t->frames[d]));
				t->top = (size_t)d;
			}
			if (emit(t, cfg, entry, e->extra, false, e->func, 0, d, e->irq))
				return -1;
			*c = (struct closed){ entry, e->func, saved, -1, t->n == had || ret != KFT_KEV_NONE };
			if (t->n > had)
				c->at = keep_args(t, entry, e->func, saved, ret, &oom);
		}
	}
	while (t->top && !(t->frames[t->top - 1].flags & KFT_FRAME_LOGGED))
		t->top--;
	/* calls still open: their arguments, and a return value that came */
	for (size_t d = 0; d < t->top && !oom; d++)
		if (t->frames[d].flags & KFT_FRAME_LOGGED)
			keep_args(t, t->frames[d].entry_ns, t->frames[d].func, t->frame_args[d],
				  t->frame_ret[d], &oom);
	return oom ? -1 : 0;
}

/* logentries is per thread, as for programs */
void kft_kernel_cut(struct kft_task_out *t, const struct kft_config *cfg)
{
	size_t cap = cfg->logentries_set ? (size_t)cfg->logentries : SIZE_MAX;

	if (t->n <= cap)
		return;
	if (cfg->overwrite) {
		memmove(t->recs, t->recs + (t->n - cap), cap * sizeof(*t->recs));
		t->c.overwritten += t->n - cap;
	} else {
		t->c.log_full += t->n - cap;
	}
	t->n = cap;
}
