/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A function's call durations, kept for exact percentiles: a duration
 * under 2^32 ns (4.29 s) as 32 bits, a longer one (a thread has few: they
 * cannot overlap but by nesting) as 64 in memory. The 32-bit ones stay in
 * memory up to a few thousand; past that they go to a temporary file
 * (common/spill.h), and each percentile is found in two passes over it,
 * by the top and then the bottom 16 bits: memory bounded by the
 * functions, not the calls.
 */
#ifndef KFT_DURATIONS_H
#define KFT_DURATIONS_H

#include <stddef.h>
#include <stdint.h>

#include "../common/error.h"
#include "../common/spill.h"

struct kft_durs {
	struct kft_spill_list small;
	int64_t *big;
	size_t nbig, capbig;
};

/* What the views show of a function's durations (ns): the nearest-rank
 * percentiles (the shortest duration that p percent do not exceed) and
 * the standard deviation. */
struct kft_spread {
	int64_t min_ns, max_ns, p50_ns, p95_ns, p99_ns;
	double sd_ns;
};

/* One more duration (ns, >= 0): 0, or -1 when out of memory. */
int kft_durs_add(struct kft_durs *d, int64_t ns);
size_t kft_durs_count(const struct kft_durs *d);
/*
 * The spread of d (not empty) into *out; the standard deviation about
 * the mean sum_ns / n, from the durations themselves (exact, where a sum
 * of squares loses the digits of long calls). 0, or -1 with err set when
 * out of memory or the temporary file could not be read.
 */
int kft_durs_spread(struct kft_durs *d, int64_t sum_ns, struct kft_spread *out,
		    struct kft_error *err);
void kft_durs_free(struct kft_durs *d);

/* The standard deviation from running sums, where the durations were not
 * kept. */
double kft_stddev_of_sums(uint64_t n, double sum, double sumsq);

#endif
