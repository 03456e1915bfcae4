// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../common/sort.h"
#include "durations.h"

int kft_durs_add(struct kft_durs *d, int64_t ns)
{
	if (ns >= 0 && ns <= (int64_t)UINT32_MAX)
		return kft_spill_list_add(&d->small, (uint32_t)ns);
	if (kft_grow((void **)&d->big, d->nbig, &d->capbig, sizeof(*d->big), 4))
		return -1;
	d->big[d->nbig++] = ns;
	return 0;
}

size_t kft_durs_count(const struct kft_durs *d)
{
	return d->small.n + d->nbig;
}

/* The nearest rank of percentile p of n, from 0. */
static uint64_t rank_of(uint64_t n, unsigned int p)
{
	uint64_t rank = (n * p + 99) / 100;

	return rank ? rank - 1 : 0;
}

/* Which ranks spread() asks for, in struct kft_spread's order. */
enum { MIN, MAX, P50, P95, P99, NRANKS };
static const unsigned int percent[NRANKS] = { 0, 100, 50, 95, 99 };

/* The top 16 bits of the durations, then the bottom 16 of those whose
 * top is a rank's (ranks with the same top share its counts); the
 * deviation in the first pass. */
struct select {
	uint64_t *top;			/* 65536 counts */
	uint64_t *low[NRANKS];		/* 65536 counts each, or NULL */
	uint32_t top_of[NRANKS];
	int owner[NRANKS];		/* the rank whose low counts are its */
	double mean, var;
};

static void count_top(void *ctx, const uint32_t *v, size_t n)
{
	struct select *s = ctx;

	for (size_t i = 0; i < n; i++) {
		double x = (double)v[i] - s->mean;

		s->top[v[i] >> 16]++;
		s->var += x * x;
	}
}

static void count_low(void *ctx, const uint32_t *v, size_t n)
{
	struct select *s = ctx;

	for (size_t i = 0; i < n; i++)
		for (int r = 0; r < NRANKS; r++)
			if (s->low[r] && v[i] >> 16 == s->top_of[r]) {
				s->low[r][v[i] & 0xffff]++;
				break;
			}
}

/* The bucket of counts[0..65536) holding rank *k, *k made a rank within it. */
static uint32_t bucket_of(const uint64_t *counts, uint64_t *k)
{
	uint32_t b = 0;

	while (*k >= counts[b]) {
		*k -= counts[b];
		b++;
	}
	return b;
}

/* The values at ranks k[] (those below its n) of the small durations, in
 * a temporary file, into at[]: two passes, and the sum of squares about
 * s->mean in the first. */
static int select_spilled(struct kft_durs *d, struct select *s, const uint64_t *k,
			  int64_t *at, struct kft_error *err)
{
	uint64_t n = d->small.n, within[NRANKS];
	uint32_t *scratch = malloc(KFT_SPILL_RUN * sizeof(*scratch));
	int ret = -1;

	if (!scratch || !(s->top = calloc(65536, sizeof(*s->top))) ||
	    kft_spill_list_each(&d->small, scratch, count_top, s))
		goto out;
	for (int r = 0; r < NRANKS; r++) {
		if (k[r] >= n)
			continue;
		within[r] = k[r];
		s->top_of[r] = bucket_of(s->top, &within[r]);
		s->owner[r] = r;
		for (int q = 0; q < r; q++)
			if (k[q] < n && s->top_of[q] == s->top_of[r])
				s->owner[r] = s->owner[q];
		if (s->owner[r] == r && !(s->low[r] = calloc(65536, sizeof(*s->low[r]))))
			goto out;
	}
	if (kft_spill_list_each(&d->small, scratch, count_low, s))
		goto out;
	for (int r = 0; r < NRANKS; r++)
		if (k[r] < n)
			at[r] = (int64_t)((uint64_t)s->top_of[r] << 16 |
					  bucket_of(s->low[s->owner[r]], &within[r]));
	ret = 0;
out:
	if (ret && !kft_spill_list_check(&d->small, err))
		kft_error_set(err, "out of memory");
	free(scratch);
	free(s->top);
	for (int r = 0; r < NRANKS; r++)
		free(s->low[r]);
	return ret;
}

int kft_durs_spread(struct kft_durs *d, int64_t sum_ns, struct kft_spread *out,
		    struct kft_error *err)
{
	uint64_t n = kft_durs_count(d), nsmall = d->small.n, k[NRANKS];
	struct select s = { .mean = (double)sum_ns / (double)n };
	int64_t at[NRANKS];

	kft_sort_i64(d->big, d->nbig);
	for (int r = 0; r < NRANKS; r++) {
		k[r] = rank_of(n, percent[r]);
		if (k[r] >= nsmall)	/* every small one is shorter than every big one */
			at[r] = d->big[k[r] - nsmall];
	}
	if (kft_spill_list_in_memory(&d->small)) {
		/* sorted, the deviation summed in that order */
		kft_sort_u32(d->small.buf, nsmall);
		for (int r = 0; r < NRANKS; r++)
			if (k[r] < nsmall)
				at[r] = d->small.buf[k[r]];
		for (uint64_t i = 0; i < nsmall; i++) {
			double x = (double)d->small.buf[i] - s.mean;

			s.var += x * x;
		}
	} else if (select_spilled(d, &s, k, at, err)) {
		return -1;
	}
	for (size_t i = 0; i < d->nbig; i++) {
		double x = (double)d->big[i] - s.mean;

		s.var += x * x;
	}
	out->min_ns = at[MIN];
	out->max_ns = at[MAX];
	out->p50_ns = at[P50];
	out->p95_ns = at[P95];
	out->p99_ns = at[P99];
	out->sd_ns = sqrt(s.var / (double)n);
	return 0;
}

void kft_durs_free(struct kft_durs *d)
{
	kft_spill_list_free(&d->small);
	free(d->big);
	memset(d, 0, sizeof(*d));
}

double kft_stddev_of_sums(uint64_t n, double sum, double sumsq)
{
	double mean, var;

	if (!n)
		return 0;
	mean = sum / (double)n;
	var = sumsq / (double)n - mean * mean;
	return var > 0 ? sqrt(var) : 0;
}
