// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../format/switches.h"
#include "funcstats.h"

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

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
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

	qsort(durs, n, sizeof(*durs), cmp_i64);
	s->min_ns = durs[0];
	s->max_ns = durs[n - 1];
	s->p50_ns = percentile(durs, n, 50);
	s->p95_ns = percentile(durs, n, 95);
	s->p99_ns = percentile(durs, n, 99);
	for (size_t i = 0; i < n; i++)
		var += ((double)durs[i] - mean) * ((double)durs[i] - mean);
	s->stddev_ns = sqrt(var / (double)n);
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
	for (size_t f = 0; f < t->nfuncs; f++) {
		durs[f] = malloc((ndurs[f] ? ndurs[f] : 1) * sizeof(**durs));
		if (!durs[f])
			goto oom;
		ndurs[f] = 0;
	}
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
	for (size_t f = 0; f < t->nfuncs; f++) {
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

/*
 * kd 1.1's arithmetic: functions by name; Time adds -1 for an unfinished
 * call; Sub-time is the time of the rows naming this function as caller,
 * from its first row on; Max-sub is the child with the largest total time
 * anywhere; Range always shows.
 */
void kft_funcstats_free(struct kft_funcstats *fs)
{
	for (size_t f = 0; f < fs->nfuncs; f++)
		free(fs->funcs[f].children);
	free(fs->funcs);
	memset(fs, 0, sizeof(*fs));
}
