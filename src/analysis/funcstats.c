// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../common/sort.h"
#include "../format/switches.h"
#include "funcstats.h"
#include "spooltree.h"

int kft_funcstats_add_child(struct kft_func_stat *s, uint32_t func, int64_t dur)
{
	struct kft_child_stat *c = NULL, *bigger;

	for (size_t i = 0; i < s->nchildren; i++)
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
	}
	c->count++;
	if (dur > 0)
		c->time_ns += dur;
	return 0;
}

int kft_funcstats_alloc(struct kft_funcstats *fs, const struct kft_calltree *t,
			struct kft_error *err)
{
	memset(fs, 0, sizeof(*fs));
	fs->funcs = calloc(t->nfuncs ? t->nfuncs : 1, sizeof(*fs->funcs));
	if (!fs->funcs)
		return kft_error_set(err, "out of memory");
	fs->nfuncs = t->nfuncs;
	for (size_t i = 0; i < t->nfuncs; i++) {
		fs->funcs[i].func = (uint32_t)i;
		fs->funcs[i].max_sub = KFT_NONE;
		fs->funcs[i].min_ns = INT64_MAX;
	}
	return 0;
}

void kft_funcstats_spread(struct kft_func_stat *s, struct kft_durs *durs)
{
	size_t n = kft_durs_count(durs);
	double mean = (double)s->sum_ns / (double)n, var = 0;

	kft_durs_sort(durs);
	s->min_ns = kft_durs_at(durs, 0);
	s->max_ns = kft_durs_at(durs, n - 1);
	s->p50_ns = kft_durs_percentile(durs, 50);
	s->p95_ns = kft_durs_percentile(durs, 95);
	s->p99_ns = kft_durs_percentile(durs, 99);
	for (size_t i = 0; i < n; i++) {
		double d = (double)kft_durs_at(durs, i) - mean;

		var += d * d;
	}
	s->stddev_ns = sqrt(var / (double)n);
}

/* Sub-time, Max-sub and the spread of durations, once every call is in. */
static void finish_stats(struct kft_funcstats *fs, struct kft_durs *durs)
{
	for (size_t f = 0; f < fs->nfuncs; f++) {
		struct kft_func_stat *s = &fs->funcs[f];
		size_t n = kft_durs_count(&durs[f]), best = 0;

		s->sub_ns = s->time_ns > s->local_ns ? s->time_ns - s->local_ns : 0;
		/* the child in which this function spent most of its time */
		for (size_t c = 0; c < s->nchildren; c++) {
			const struct kft_child_stat *ch = &s->children[c];

			if (s->max_sub == KFT_NONE || ch->time_ns > s->children[best].time_ns) {
				s->max_sub = ch->func;
				s->max_sub_count = ch->count;
				best = c;
			}
		}
		if (!n) {
			s->min_ns = s->max_ns = 0;
			continue;
		}
		kft_funcstats_spread(s, &durs[f]);
	}
}

void kft_funcstats_free(struct kft_funcstats *fs)
{
	for (size_t f = 0; f < fs->nfuncs; f++)
		free(fs->funcs[f].children);
	free(fs->funcs);
	memset(fs, 0, sizeof(*fs));
}

/* ---- over a tree on disk ---------------------------------------------- */

static int cmp_first_row(const void *a, const void *b)
{
	const struct kft_child_stat *x = a, *y = b;

	return x->first.pre < y->first.pre ? -1 : x->first.pre > y->first.pre;
}

/* One more call of func, at row, under s: children keep the order of
 * their first row. */
static int add_child_at(struct kft_func_stat *s, uint32_t func, int64_t dur, uint32_t row)
{
	if (kft_funcstats_add_child(s, func, dur))
		return -1;
	for (size_t i = 0; i < s->nchildren; i++) {
		struct kft_child_stat *ch = &s->children[i];

		if (ch->func == func && (ch->count == 1 || row < ch->first.pre))
			ch->first.pre = row;
	}
	return 0;
}

struct open_func {
	uint32_t func;
	bool finished;
};

/* One pass over st in depth-first order. */
static int spool_pass(struct kft_funcstats *fs, struct kft_spooltree *st, struct kft_durs *durs,
		      uint64_t *active, struct kft_error *err)
{
	struct open_func *open = NULL;
	size_t nopen = 0, cap = 0;
	int ret = 0;

	for (uint64_t p = 0; p < st->ncalls; p++) {
		struct kft_node n;
		struct kft_func_stat *s;
		uint32_t row;

		if (kft_spooltree_get(st, p, &n, NULL, &row, err)) {
			ret = -1;
			break;
		}
		while (nopen > n.depth) {
			nopen--;
			active[open[nopen].func] -= open[nopen].finished;
		}
		s = &fs->funcs[n.func];
		s->count++;
		if (nopen && add_child_at(&fs->funcs[open[nopen - 1].func], n.func, n.dur_ns, row))
			goto oom;
		if (n.dur_ns < 0) {
			s->unfinished++;
		} else {
			/* only the outermost finished call of a function counts */
			if (!active[n.func])
				s->time_ns += n.dur_ns;
			s->sum_ns += n.dur_ns;
			s->local_ns += n.local_ns;
			if (kft_durs_add(&durs[n.func], n.dur_ns))
				goto oom;
		}
		if (kft_grow((void **)&open, nopen, &cap, sizeof(*open), 64))
			goto oom;
		open[nopen++] = (struct open_func){ n.func, n.dur_ns >= 0 };
		active[n.func] += n.dur_ns >= 0;
	}
	free(open);
	return ret;
oom:
	free(open);
	return kft_error_set(err, "out of memory");
}

int kft_funcstats_from_spool(struct kft_funcstats *fs, struct kft_spooltree *st,
			     struct kft_error *err)
{
	size_t nf = st->t.nfuncs ? st->t.nfuncs : 1;
	struct kft_durs *durs = calloc(nf, sizeof(*durs));
	uint64_t *active = calloc(nf, sizeof(*active));
	int ret = -1;

	if (kft_funcstats_alloc(fs, &st->t, err)) {
		free(durs);
		free(active);
		return -1;
	}
	if (!durs || !active) {
		kft_error_set(err, "out of memory");
		goto out;
	}
	if (spool_pass(fs, st, durs, active, err))
		goto out;
	for (size_t f = 0; f < fs->nfuncs; f++)
		if (fs->funcs[f].nchildren)
			qsort(fs->funcs[f].children, fs->funcs[f].nchildren,
			      sizeof(*fs->funcs[f].children), cmp_first_row);
	finish_stats(fs, durs);
	ret = 0;
out:
	for (size_t f = 0; durs && f < st->t.nfuncs; f++)
		kft_durs_free(&durs[f]);
	free(durs);
	free(active);
	if (ret)
		kft_funcstats_free(fs);
	return ret;
}
