/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kft stats: how often each function ran and how regularly, as KPTrace's
 * interval tables did for interrupts: calls, rate, the interval between
 * successive entries (min, average, max, deviation) and the calls'
 * durations (the same, and median and 99th percentile); where the
 * longest interval was, and what ran on that thread meanwhile.
 */
#ifndef KFT_VIEW_STATS_H
#define KFT_VIEW_STATS_H

#include "../analysis/durations.h"
#include "../common/strmap.h"
#include "export-common.h"

/* Log-scale buckets: bucket b holds values in [2^(b-1), 2^b) ns, bucket 0
 * values under 1 ns. */
#define KFT_STATS_BUCKETS 48

struct kft_stat_series {
	uint64_t n;
	int64_t min_ns, max_ns;
	double sum_ns, sumsq;		/* for the average and deviation */
	uint64_t buckets[KFT_STATS_BUCKETS];
};

struct kft_func_stats {
	uint32_t func;			/* kft_stats.x.names.funcs[func] */
	uint64_t fired;			/* calls, finished or not */
	uint64_t first_ns, last_ns;	/* entries, since the run began */
	struct kft_stat_series interval;	/* between successive entries */
	struct kft_stat_series duration;	/* finished calls */
	struct kft_durs durs;		/* each finished call's, for percentiles
					 * (given back once they are known) */
	int64_t p50_ns, p99_ns;
	double sd_ns;			/* of the durations (analysis/durations.h) */
	double oncpu_ns;		/* finished calls' time on the CPU, summed */
	struct {			/* the longest interval */
		uint64_t from_ns, to_ns;
		uint32_t pid, tid;	/* of the call that ended it */
	} longest;
};

struct kft_stats {
	struct export_ctx x;		/* names: x.names.funcs[func].name */
	struct kft_func_stats *funcs;	/* those that ran, most calls first */
	size_t nfuncs;
	uint64_t span_ns;		/* the run's length */
	const struct kft_switches *switches;	/* NULL: not recorded */
};

/* Each function o's globs keep: one pass over the calls. Free with
 * kft_stats_free(), also after an error. */
int kft_stats_compute(struct kft_stats *st, const struct kft_trace *tr,
		      struct kft_symbolizer *sz, const struct kft_export_opts *o,
		      struct kft_error *err);
void kft_stats_free(struct kft_stats *st);

/* The table, the functions in the order given. */
void kft_stats_print(FILE *out, const struct kft_stats *st);

/*
 * What ran on the thread of s's longest interval during it: the calls
 * open all through it ("inside"), and those that began in it, outermost
 * only, in time order, at most limit of them.
 */
int kft_stats_print_gap(FILE *out, const struct kft_stats *st, const struct kft_func_stats *s,
			const struct kft_trace *tr, size_t limit, struct kft_error *err);

/* s's durations (or intervals) as a histogram: bars on a terminal, or an
 * SVG picture (svg true). */
void kft_stats_histogram(FILE *out, const struct kft_stats *st, const struct kft_func_stats *s,
			 bool intervals, bool svg);

/* ns as usec, 10 wide, after a blank; '-' where there is none (!have). */
void kft_stats_put_us(FILE *out, bool have, double ns);

/* ---- --by FUNC@argN / FUNC@retval (stats-by-arg.c) ---------------------- */

/* "FUNC@argN" or "FUNC@retval" into func (size bytes) and slot (0..5, or
 * KFT_ARGVAL_RETVAL): 0, or -1 when it names no one value. */
int kft_arg_key_parse(const char *text, char *func, size_t size, int *slot);

/* The calls whose saved value in the slot read alike. */
struct kft_arg_group {
	char *value;			/* as the views show it; "-": none saved */
	uint64_t calls, finished, unfinished;
	uint64_t total_ns, min_ns, max_ns;	/* of the finished ones */
	uint64_t worst_at_ns;		/* the longest one's entry, since the run began */
	uint32_t worst_tid;
};

struct kft_arg_groups {
	struct export_ctx x;
	struct kft_export_opts o;
	const char *only[2];
	int slot;
	struct kft_arg_group *v;	/* most time first, or longest call first */
	size_t n;
	struct kft_strmap index;	/* value -> v[] */
};

/* The calls of func (a name or glob) by their value in slot, in one pass.
 * Free with kft_arg_groups_free(), also after an error. */
int kft_arg_groups_compute(struct kft_arg_groups *g, const struct kft_trace *tr,
			   struct kft_symbolizer *sz, const char *func, int slot, bool worst_first,
			   struct kft_error *err);
void kft_arg_groups_free(struct kft_arg_groups *g);
/* The table, headed by key ("open@arg1"): calls and time of each value,
 * or (worst_first) each value's longest call, when and where. */
void kft_arg_groups_print(FILE *out, const struct kft_arg_groups *g, const char *key,
			  bool worst_first);
/* kft diff --by key: each value's calls and time (us) in the old trace
 * and the new, and the change, the largest first ('new', 'gone' where
 * one has none); at most limit rows (-1: all). */
int kft_view_diff_by_arg(FILE *out, const struct kft_trace *old_tr, struct kft_symbolizer *old_sz,
			 const struct kft_trace *new_tr, struct kft_symbolizer *new_sz,
			 const char *key, long limit, struct kft_error *err);
/* All of it for `--by key`: the table, or an error naming key. */
int kft_view_by_arg(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		    const char *key, bool worst_first, struct kft_error *err);

#endif
