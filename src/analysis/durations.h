/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A function's call durations, kept for exact percentiles in 4 bytes a
 * call: a duration under 2^32 ns (4.29 s) as 32 bits, a longer one (a
 * thread has few: they cannot overlap but by nesting) in 64.
 */
#ifndef KFT_DURATIONS_H
#define KFT_DURATIONS_H

#include <stddef.h>
#include <stdint.h>

struct kft_durs {
	uint32_t *small;
	int64_t *big;
	size_t nsmall, capsmall, nbig, capbig;
};

/* One more duration (ns, >= 0): 0, or -1 when out of memory. */
int kft_durs_add(struct kft_durs *d, int64_t ns);
size_t kft_durs_count(const struct kft_durs *d);
/* In ascending order, for kft_durs_at. */
void kft_durs_sort(struct kft_durs *d);
/* The k-th shortest (from 0), once sorted. */
int64_t kft_durs_at(const struct kft_durs *d, size_t k);
/* Nearest rank: the shortest duration that p percent of them do not
 * exceed (d not empty, sorted). */
int64_t kft_durs_percentile(const struct kft_durs *d, unsigned int p);
void kft_durs_free(struct kft_durs *d);

/*
 * The one duration statistics of kft's views (kd's summary, kft stats):
 * the standard deviation from the durations themselves, about their mean
 * sum_ns / n (two passes: exact, where a sum of squares loses the digits
 * of long calls), d sorted or not; and from running sums, where the
 * durations were not kept.
 */
double kft_durs_stddev(const struct kft_durs *d, int64_t sum_ns);
double kft_stddev_of_sums(uint64_t n, double sum, double sumsq);

#endif
