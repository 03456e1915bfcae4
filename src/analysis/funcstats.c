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

/* Nearest-rank percentile of a sorted array. */
static int64_t percentile(const int64_t *v, size_t n, unsigned int p)
{
	size_t rank = (n * p + 99) / 100;

	return n ? v[rank ? rank - 1 : 0] : 0;
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

/*
 * Mark the calls of each function that run inside no finished call of the
 * same function (in the same tree): only they count in its Time. Depth
 * first, keeping how many finished calls of each function are open.
 */
static int mark_outermost(const struct kft_calltree *t, bool *outer)
{
	uint64_t *active = calloc(t->nfuncs ? t->nfuncs : 1, sizeof(*active));

	if (!active)
		return -1;
	for (size_t r = 0; r < t->nroots; r++) {
		uint32_t cur = t->roots[r];

		while (cur != KFT_NONE) {
			const struct kft_node *n = &t->nodes[cur];
			bool done = n->dur_ns >= 0;

			outer[cur] = done && !active[n->func];
			active[n->func] += done;
			if (n->first_child != KFT_NONE) {
				cur = n->first_child;
				continue;
			}
			/* leave cur and every ancestor whose last child it closes */
			for (;;) {
				const struct kft_node *m = &t->nodes[cur];

				active[m->func] -= m->dur_ns >= 0;
				if (cur == t->roots[r]) {
					cur = KFT_NONE;
					break;
				}
				if (m->next_sibling != KFT_NONE) {
					cur = m->next_sibling;
					break;
				}
				cur = m->parent;
			}
		}
	}
	free(active);
	return 0;
}

void kft_funcstats_spread(struct kft_func_stat *s, int64_t *durs, size_t n)
{
	double mean = (double)s->sum_ns / (double)n, var = 0;

	kft_sort_i64(durs, n);
	s->min_ns = durs[0];
	s->max_ns = durs[n - 1];
	s->p50_ns = percentile(durs, n, 50);
	s->p95_ns = percentile(durs, n, 95);
	s->p99_ns = percentile(durs, n, 99);
	for (size_t i = 0; i < n; i++)
		var += ((double)durs[i] - mean) * ((double)durs[i] - mean);
	s->stddev_ns = sqrt(var / (double)n);
}

/* Sub-time, Max-sub and the spread of durations, once every call is in. */
static void finish_stats(struct kft_funcstats *fs, int64_t **durs, const size_t *ndurs)
{
	for (size_t f = 0; f < fs->nfuncs; f++) {
		struct kft_func_stat *s = &fs->funcs[f];
		size_t n = ndurs[f], best = 0;

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
		kft_funcstats_spread(s, durs[f], n);
	}
}

/* Room for each function's finished durations, counted in ndurs (which
 * goes back to 0s, to count them in). */
static int alloc_durs(int64_t **durs, size_t *ndurs, size_t nfuncs)
{
	for (size_t f = 0; f < nfuncs; f++) {
		durs[f] = malloc((ndurs[f] ? ndurs[f] : 1) * sizeof(**durs));
		if (!durs[f])
			return -1;
		ndurs[f] = 0;
	}
	return 0;
}

int kft_funcstats_compute(struct kft_funcstats *fs, const struct kft_calltree *t,
			  struct kft_error *err)
{
	bool *outer = NULL;
	int64_t **durs = NULL;
	size_t *ndurs = NULL;
	int ret = -1;

	if (kft_funcstats_alloc(fs, t, err))
		return -1;
	fs->switches = t->switches.present;
	durs = calloc(t->nfuncs ? t->nfuncs : 1, sizeof(*durs));
	ndurs = calloc(t->nfuncs ? t->nfuncs : 1, sizeof(*ndurs));
	outer = malloc((t->nnodes ? t->nnodes : 1) * sizeof(*outer));
	if (!durs || !ndurs || !outer || mark_outermost(t, outer))
		goto oom;
	/* first pass: how many finished calls each function has */
	for (size_t i = 0; i < t->nnodes; i++)
		if (t->nodes[i].dur_ns >= 0)
			ndurs[t->nodes[i].func]++;
	if (alloc_durs(durs, ndurs, t->nfuncs))
		goto oom;
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct kft_node *n = &t->nodes[i];
		struct kft_func_stat *s = &fs->funcs[n->func];

		s->count++;
		if (n->parent != KFT_NONE &&
		    kft_funcstats_add_child(&fs->funcs[t->nodes[n->parent].func], n->func, n->dur_ns))
			goto oom;
		if (n->dur_ns < 0) {
			s->unfinished++;
			continue;
		}
		if (outer[i]) {
			s->time_ns += n->dur_ns;
			if (t->switches.present)
				s->off_ns += (int64_t)kft_switches_off_ns(
					&t->switches, n->tid, t->base_ns + (uint64_t)n->entry_ns,
					t->base_ns + (uint64_t)(n->entry_ns + n->dur_ns));
		}
		s->sum_ns += n->dur_ns;
		s->local_ns += n->local_ns;
		durs[n->func][ndurs[n->func]++] = n->dur_ns;
	}
	finish_stats(fs, durs, ndurs);
	ret = 0;
	goto out;
oom:
	kft_error_set(err, "out of memory");
out:
	for (size_t f = 0; durs && f < t->nfuncs; f++)
		free(durs[f]);
	free(durs);
	free(ndurs);
	free(outer);
	if (ret)
		kft_funcstats_free(fs);
	return ret;
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
 * their first row, as a tree in memory, read in row order, gives them. */
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

/* Pass over st in depth-first order; count: only count finished calls. */
static int spool_pass(struct kft_funcstats *fs, struct kft_spooltree *st, int64_t **durs,
		      size_t *ndurs, uint64_t *active, bool count, struct kft_error *err)
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
		if (count) {
			ndurs[n.func] += n.dur_ns >= 0;
			continue;
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
			durs[n.func][ndurs[n.func]++] = n.dur_ns;
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
	int64_t **durs = calloc(nf, sizeof(*durs));
	size_t *ndurs = calloc(nf, sizeof(*ndurs));
	uint64_t *active = calloc(nf, sizeof(*active));
	int ret = -1;

	if (kft_funcstats_alloc(fs, &st->t, err)) {
		free(durs);
		free(ndurs);
		free(active);
		return -1;
	}
	if (!durs || !ndurs || !active) {
		kft_error_set(err, "out of memory");
		goto out;
	}
	if (spool_pass(fs, st, durs, ndurs, active, true, err))
		goto out;
	if (alloc_durs(durs, ndurs, st->t.nfuncs)) {
		kft_error_set(err, "out of memory");
		goto out;
	}
	if (spool_pass(fs, st, durs, ndurs, active, false, err))
		goto out;
	for (size_t f = 0; f < fs->nfuncs; f++)
		if (fs->funcs[f].nchildren)
			qsort(fs->funcs[f].children, fs->funcs[f].nchildren,
			      sizeof(*fs->funcs[f].children), cmp_first_row);
	finish_stats(fs, durs, ndurs);
	ret = 0;
out:
	for (size_t f = 0; durs && f < st->t.nfuncs; f++)
		free(durs[f]);
	free(durs);
	free(ndurs);
	free(active);
	if (ret)
		kft_funcstats_free(fs);
	return ret;
}
