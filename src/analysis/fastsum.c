// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-function totals straight from a kft trace, in one pass over each
 * thread's records, with no sorting and no tree: a record is written
 * when its call ends, so a call's children always come before it, and a
 * running sum per depth gives each call its Local time. A signal
 * handler's calls keep sums of their own: they are never a child's time.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fastsum.h"
#include "functable.h"

struct depth_sums {
	int64_t *sum;
	size_t cap;
	size_t high;		/* sums above it are all zero */
};

/* The finished time of the calls below depth d, taken out of the sums. */
static int64_t take_below(struct depth_sums *s, size_t d)
{
	int64_t total = 0;

	for (size_t k = d + 1; k <= s->high && k < s->cap; k++) {
		total += s->sum[k];
		s->sum[k] = 0;
	}
	if (s->high > d)
		s->high = d;
	return total;
}

static int add_at(struct depth_sums *s, size_t d, int64_t dur)
{
	if (d >= s->cap) {
		size_t cap = s->cap ? s->cap : 256;
		int64_t *bigger;

		while (cap <= d)
			cap *= 2;
		bigger = realloc(s->sum, cap * sizeof(*bigger));
		if (!bigger)
			return -1;
		memset(bigger + s->cap, 0, (cap - s->cap) * sizeof(*bigger));
		s->sum = bigger;
		s->cap = cap;
	}
	s->sum[d] += dur;
	if (d > s->high)
		s->high = d;
	return 0;
}

struct acc {
	double sum, sumsq;
};

static int grow_stats(struct kft_funcstats *fs, struct acc **acc, size_t nfuncs)
{
	struct kft_func_stat *f;
	struct acc *a;

	if (nfuncs <= fs->nfuncs)
		return 0;
	f = realloc(fs->funcs, nfuncs * sizeof(*f));
	if (!f)
		return -1;
	fs->funcs = f;
	a = realloc(*acc, nfuncs * sizeof(*a));
	if (!a)
		return -1;
	*acc = a;
	for (size_t i = fs->nfuncs; i < nfuncs; i++) {
		memset(&f[i], 0, sizeof(f[i]));
		f[i].func = (uint32_t)i;
		f[i].max_sub = KFT_NONE;
		f[i].min_ns = INT64_MAX;
		a[i].sum = a[i].sumsq = 0;
	}
	fs->nfuncs = nfuncs;
	return 0;
}

static int one_thread(struct kft_funcstats *fs, struct acc **acc, struct kft_functable *ft,
		      const struct kft_thread_file *th)
{
	struct depth_sums sums[2] = { { 0 }, { 0 } };	/* normal, signal context */
	uint64_t last_func = UINT64_MAX;
	uint32_t id = 0;
	int ret = -1;

	for (uint64_t r = 0; r < th->nrecs; r++) {
		struct kft_rec_data rec;
		size_t d;
		struct depth_sums *s;
		int64_t dur, below;
		struct kft_func_stat *st;

		kft_thread_rec(th, r, &rec);
		d = rec.depth;
		s = &sums[!!(rec.flags & KFT_REC_SIGNAL)];
		dur = kft_dur_decode(rec.dur);
		if (dur == -2)
			continue;	/* stack-watch rows are no calls */
		/* runs of one function are common: skip the cache then */
		if (rec.func != last_func) {
			if (kft_functable_addr(ft, th->hdr.session, rec.func, &id) ||
			    grow_stats(fs, acc, ft->t->nfuncs))
				goto out;
			last_func = rec.func;
		}
		st = &fs->funcs[id];
		st->count++;
		below = take_below(s, d);
		if (dur < 0) {
			st->unfinished++;
			continue;
		}
		st->time_ns += dur;
		st->local_ns += dur > below ? dur - below : 0;
		if (dur < st->min_ns)
			st->min_ns = dur;
		if (dur > st->max_ns)
			st->max_ns = dur;
		(*acc)[id].sum += (double)dur;
		(*acc)[id].sumsq += (double)dur * (double)dur;
		if (add_at(s, d, dur))
			goto out;
	}
	for (uint64_t f = 0; f < th->nframes; f++) {
		const struct kft_frame *fr = &th->frames[f];

		if (!(fr->flags & KFT_FRAME_LOGGED))
			continue;
		if (kft_functable_addr(ft, th->hdr.session, fr->func, &id) ||
		    grow_stats(fs, acc, ft->t->nfuncs))
			goto out;
		fs->funcs[id].count++;
		fs->funcs[id].unfinished++;
	}
	ret = 0;
out:
	free(sums[0].sum);
	free(sums[1].sum);
	return ret;
}

int kft_funcstats_from_trace(struct kft_funcstats *fs, struct kft_calltree *t,
			     const struct kft_trace *tr, struct kft_symbolizer *sz,
			     struct kft_error *err)
{
	struct kft_functable ft;
	struct acc *acc = NULL;
	int ret = -1;

	memset(fs, 0, sizeof(*fs));
	memset(t, 0, sizeof(*t));
	kft_functable_init(&ft, t, sz);
	for (size_t i = 0; i < tr->nthreads; i++)
		if (one_thread(fs, &acc, &ft, &tr->threads[i]))
			goto out;
	if (kft_functable_finish(&ft))
		goto out;
	for (size_t f = 0; f < fs->nfuncs; f++) {
		struct kft_func_stat *s = &fs->funcs[f];
		uint64_t n = s->count - s->unfinished;

		s->sub_ns = s->time_ns - s->local_ns;
		if (!n) {
			s->min_ns = s->max_ns = 0;
			continue;
		}
		{
			double mean = acc[f].sum / (double)n;
			double var = acc[f].sumsq / (double)n - mean * mean;

			s->stddev_ns = var > 0 ? sqrt(var) : 0;
		}
	}
	ret = 0;
out:
	free(acc);
	kft_functable_done(&ft);
	if (ret) {
		kft_funcstats_free(fs);
		kft_calltree_free(t);
		kft_error_set(err, "out of memory");
	}
	return ret;
}
