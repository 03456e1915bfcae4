// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../common/sort.h"
#include "durations.h"

int kft_durs_add(struct kft_durs *d, int64_t ns)
{
	if (ns >= 0 && ns <= (int64_t)UINT32_MAX) {
		if (kft_grow((void **)&d->small, d->nsmall, &d->capsmall, sizeof(*d->small), 64))
			return -1;
		d->small[d->nsmall++] = (uint32_t)ns;
		return 0;
	}
	if (kft_grow((void **)&d->big, d->nbig, &d->capbig, sizeof(*d->big), 4))
		return -1;
	d->big[d->nbig++] = ns;
	return 0;
}

size_t kft_durs_count(const struct kft_durs *d)
{
	return d->nsmall + d->nbig;
}

void kft_durs_sort(struct kft_durs *d)
{
	kft_sort_u32(d->small, d->nsmall);
	kft_sort_i64(d->big, d->nbig);
}

/* Every small one is shorter than every big one (a big one below 0 is
 * none: durations are never negative). */
int64_t kft_durs_at(const struct kft_durs *d, size_t k)
{
	return k < d->nsmall ? (int64_t)d->small[k] : d->big[k - d->nsmall];
}

int64_t kft_durs_percentile(const struct kft_durs *d, unsigned int p)
{
	size_t n = kft_durs_count(d), rank = (n * p + 99) / 100;

	return kft_durs_at(d, rank ? rank - 1 : 0);
}

void kft_durs_free(struct kft_durs *d)
{
	free(d->small);
	free(d->big);
	memset(d, 0, sizeof(*d));
}

double kft_durs_stddev(const struct kft_durs *d, int64_t sum_ns)
{
	size_t n = kft_durs_count(d);
	double mean, var = 0;

	if (!n)
		return 0;
	mean = (double)sum_ns / (double)n;
	for (size_t i = 0; i < n; i++) {
		double x = (double)kft_durs_at(d, i) - mean;

		var += x * x;
	}
	return sqrt(var / (double)n);
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
