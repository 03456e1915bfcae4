/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-function statistics over a call tree: what kd's summary shows, and
 * more (min, max, deviation, percentiles). Sub-time and children come
 * from the tree, so Local is exact. The classic variant reproduces kd
 * 1.1's arithmetic, mistakes included, for comparison with old reports.
 */
#ifndef KFT_FUNCSTATS_H
#define KFT_FUNCSTATS_H

#include "calltree.h"
#include "durations.h"

struct kft_child_stat {
	uint32_t func;
	uint64_t count;		/* calls of it under this function */
	int64_t time_ns;	/* their finished time */
	struct {		/* its first call, to order the list (funcstats-trace.c) */
		uint64_t entry_ns, pre;
		uint32_t tid, session;
	} first;
};

struct kft_func_stat {
	uint32_t func;
	uint64_t count;		/* calls, finished or not */
	uint64_t unfinished;
	int64_t time_ns;	/* finished calls, each outermost one only: a call
				 * inside another of the same function is in it
				 * already (classic: every call; -1 adds -1 usec) */
	int64_t sum_ns;		/* finished calls, every one (for the average) */
	int64_t sub_ns;
	int64_t local_ns;
	int64_t off_ns;		/* of time_ns, spent switched out (switches recorded) */
	int64_t min_ns, max_ns;	/* of finished calls */
	double stddev_ns;
	int64_t p50_ns, p95_ns, p99_ns;
	struct kft_child_stat *children;	/* in order of first call */
	size_t nchildren;
	uint32_t max_sub;	/* KFT_NONE if no child */
	uint64_t max_sub_count;
};

struct kft_funcstats {
	struct kft_func_stat *funcs;	/* one per function of the tree, same index */
	size_t nfuncs;
	bool classic;
	bool switches;		/* off_ns known: the trace has its context switches */
};

/* From a tree on disk (spooltree.h). */
struct kft_spooltree;
int kft_funcstats_from_spool(struct kft_funcstats *fs, struct kft_spooltree *st,
			     struct kft_error *err);
/* classic.c: kd 1.1's arithmetic, straight from rows (a log's, or a
 * trace's: classic-rows.h; t then gets the functions, by bare name) */
struct kft_text_source;
int kft_funcstats_classic_from_rows(struct kft_funcstats *fs, struct kft_calltree *t,
				    const struct kft_text_source *src, struct kft_error *err);
int kft_funcstats_alloc(struct kft_funcstats *fs, const struct kft_calltree *t,
			struct kft_error *err);
/* One more call of func under s (dur > 0 adds to the child's time). */
int kft_funcstats_add_child(struct kft_func_stat *s, uint32_t func, int64_t dur);
void kft_funcstats_free(struct kft_funcstats *fs);
/* Min, max, median, tails and deviation of s from its finished calls'
 * durations (at least one), which it sorts; s->sum_ns must be their sum. */
void kft_funcstats_spread(struct kft_func_stat *s, struct kft_durs *durs);

#endif
