// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one per-function summary's arithmetic (funcstats.h): what a source
 * of calls feeds, added up; the children's order, Max-sub and the spread
 * of durations derived at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "funcstats.h"

/* What a function's summary needs only while it is built. */
struct kft_func_work {
	double sumsq;		/* of finished calls' durations, for the deviation */
	struct kft_durs durs;	/* every finished call's, if kept */
};

int kft_funcstats_add_child(struct kft_func_stat *s, uint32_t func, int64_t dur)
{
	struct kft_child_stat *c = NULL, *bigger;

	for (size_t i = 0; i < s->nchildren && !c; i++)
		if (s->children[i].func == func)
			c = &s->children[i];
	if (!c) {
		bigger = realloc(s->children, (s->nchildren + 1) * sizeof(*bigger));
		if (!bigger)
			return -1;
		s->children = bigger;
		c = &s->children[s->nchildren++];
		memset(c, 0, sizeof(*c));
		c->func = func;
		c->first.entry_ns = UINT64_MAX;
	}
	c->count++;
	if (dur > 0)
		c->time_ns += dur;
	return 0;
}

void kft_funcstats_build_start(struct kft_funcstats_build *b, struct kft_funcstats *fs,
			       bool durations)
{
	memset(fs, 0, sizeof(*fs));
	*b = (struct kft_funcstats_build){ .fs = fs, .durations = durations };
}

int kft_funcstats_cover(struct kft_funcstats_build *b, size_t nfuncs)
{
	struct kft_funcstats *fs = b->fs;

	if (nfuncs <= fs->nfuncs)
		return 0;
	if (nfuncs > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		struct kft_func_stat *f;
		struct kft_func_work *w;

		while (cap < nfuncs)
			cap *= 2;
		f = realloc(fs->funcs, cap * sizeof(*f));
		if (!f)
			return -1;
		fs->funcs = f;
		w = realloc(b->work, cap * sizeof(*w));
		if (!w)
			return -1;
		b->work = w;
		b->cap = cap;
	}
	for (size_t i = fs->nfuncs; i < nfuncs; i++) {
		memset(&fs->funcs[i], 0, sizeof(fs->funcs[i]));
		fs->funcs[i].func = (uint32_t)i;
		fs->funcs[i].max_sub = KFT_NONE;
		fs->funcs[i].min_ns = INT64_MAX;
		memset(&b->work[i], 0, sizeof(b->work[i]));
	}
	fs->nfuncs = nfuncs;
	return 0;
}

int kft_funcstats_call(struct kft_funcstats_build *b, uint32_t func, int64_t dur,
		       int64_t local, int64_t off, bool outermost)
{
	struct kft_func_stat *s = &b->fs->funcs[func];
	struct kft_func_work *w = &b->work[func];

	s->count++;
	if (dur < 0) {
		s->unfinished++;
		return 0;
	}
	if (outermost) {
		s->time_ns += dur;
		s->off_ns += off;
	}
	s->sum_ns += dur;
	s->local_ns += local;
	if (dur < s->min_ns)
		s->min_ns = dur;
	if (dur > s->max_ns)
		s->max_ns = dur;
	w->sumsq += (double)dur * (double)dur;
	return b->durations ? kft_durs_add(&w->durs, dur) : 0;
}

void kft_funcstats_nested(struct kft_funcstats_build *b, uint32_t func, uint64_t nested)
{
	struct kft_func_stat *s = &b->fs->funcs[func];

	s->time_calls++;
	s->time_nested += nested;
}

static bool earlier(const struct kft_call_place *p, const struct kft_call_place *q)
{
	if (p->entry_ns != q->entry_ns)
		return p->entry_ns < q->entry_ns;
	if (p->tid != q->tid)
		return p->tid < q->tid;
	if (p->session != q->session)
		return p->session < q->session;
	return p->pre < q->pre;
}

int kft_funcstats_child(struct kft_funcstats_build *b, uint32_t parent, uint32_t func,
			int64_t dur, const struct kft_call_place *place)
{
	struct kft_func_stat *s = &b->fs->funcs[parent];
	struct kft_child_stat *ch;

	if (kft_funcstats_add_child(s, func, dur))
		return -1;
	for (ch = s->children; ch->func != func; ch++)
		;
	if (earlier(place, &ch->first))
		ch->first = *place;
	return 0;
}

static int cmp_first_call(const void *a, const void *b)
{
	const struct kft_child_stat *x = a, *y = b;

	return earlier(&x->first, &y->first) ? -1 : earlier(&y->first, &x->first);
}

/* Children in order of their first call; Max-sub the one in which the
 * function spent most time (the first called, on a tie). */
static void order_children(struct kft_func_stat *s)
{
	if (s->nchildren)
		qsort(s->children, s->nchildren, sizeof(*s->children), cmp_first_call);
	for (size_t c = 0, best = 0; c < s->nchildren; c++) {
		if (s->max_sub == KFT_NONE || s->children[c].time_ns > s->children[best].time_ns) {
			s->max_sub = s->children[c].func;
			s->max_sub_count = s->children[c].count;
			best = c;
		}
	}
}

/* Min, max, median, tails and deviation of s from its finished calls'
 * durations: 0, or -1 with err set. */
static int spread(struct kft_func_stat *s, struct kft_durs *durs, struct kft_error *err)
{
	struct kft_spread sp;

	if (kft_durs_spread(durs, s->sum_ns, &sp, err))
		return -1;
	s->min_ns = sp.min_ns;
	s->max_ns = sp.max_ns;
	s->p50_ns = sp.p50_ns;
	s->p95_ns = sp.p95_ns;
	s->p99_ns = sp.p99_ns;
	s->stddev_ns = sp.sd_ns;
	return 0;
}

static void free_work(struct kft_funcstats_build *b)
{
	for (size_t f = 0; b->work && f < b->fs->nfuncs; f++)
		kft_durs_free(&b->work[f].durs);
	free(b->work);
	b->work = NULL;
}

int kft_funcstats_build_finish(struct kft_funcstats_build *b, struct kft_error *err)
{
	struct kft_funcstats *fs = b->fs;

	for (size_t f = 0; f < fs->nfuncs; f++) {
		struct kft_func_stat *s = &fs->funcs[f];
		uint64_t n = s->count - s->unfinished;

		s->sub_ns = s->time_ns > s->local_ns ? s->time_ns - s->local_ns : 0;
		order_children(s);
		if (!n) {
			s->min_ns = s->max_ns = 0;
		} else if (b->durations) {
			if (spread(s, &b->work[f].durs, err))
				return -1;
		} else {
			s->stddev_ns = kft_stddev_of_sums(n, (double)s->sum_ns, b->work[f].sumsq);
		}
	}
	free_work(b);
	return 0;
}

void kft_funcstats_build_keep(struct kft_funcstats_build *b)
{
	free_work(b);
}

void kft_funcstats_build_abort(struct kft_funcstats_build *b)
{
	free_work(b);
	kft_funcstats_free(b->fs);
}

void kft_funcstats_free(struct kft_funcstats *fs)
{
	for (size_t f = 0; f < fs->nfuncs; f++)
		free(fs->funcs[f].children);
	free(fs->funcs);
	memset(fs, 0, sizeof(*fs));
}
