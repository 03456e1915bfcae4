/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-function statistics: what kd's summary shows, and more (min, max,
 * deviation, percentiles), one arithmetic (funcstats.c) whatever the
 * calls come from. Sub-time and children come from the calls' nesting,
 * so Local is exact. The classic variant (classic.c) is another answer:
 * kd 1.1's arithmetic, mistakes included, for comparison with old reports.
 */
#ifndef KFT_FUNCSTATS_H
#define KFT_FUNCSTATS_H

#include "calltree.h"
#include "compensation.h"
#include "durations.h"

/* Where a call was met: children are listed in order of their first call
 * (by time, then thread, image, and place in the thread's stream). */
struct kft_call_place {
	uint64_t entry_ns, pre;
	uint32_t tid, session;
};

struct kft_child_stat {
	uint32_t func;
	uint64_t count;		/* calls of it under this function */
	int64_t time_ns;	/* their finished time */
	struct kft_call_place first;
};

struct kft_func_stat {
	uint32_t func;
	uint64_t count;		/* calls, finished or not */
	uint64_t unfinished;
	int64_t time_ns;	/* finished calls, each outermost one only: a call
				 * inside another of the same function is in it
				 * already (classic: every call; -1 adds -1 usec) */
	uint64_t time_calls;	/* those outermost calls (trace walks only) */
	uint64_t time_nested;	/* the logged calls under them */
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
	struct kft_compensation comp;	/* what --compensate took off (trace walks) */
};

/*
 * The one summary's arithmetic, fed call by call by a source: a trace's
 * walk (funcstats-trace.c) or a tree on disk (funcstats-spool.c). Each
 * source finds the calls, their nesting and their Local; the builder
 * adds them up and derives the rest at the end.
 */
struct kft_funcstats_build {
	struct kft_funcstats *fs;
	struct kft_func_work *work;	/* per function, while building */
	size_t cap;
	bool durations;		/* keep every duration: exact percentiles */
};

/* Start filling fs (emptied); durations: see above. */
void kft_funcstats_build_start(struct kft_funcstats_build *b, struct kft_funcstats *fs,
			       bool durations);
/* Room for functions 0..nfuncs-1: 0, or -1 when out of memory. */
int kft_funcstats_cover(struct kft_funcstats_build *b, size_t nfuncs);
/* One call of func: dur < 0 if unfinished; outermost: no finished call of
 * func encloses it (only those count in Time); local and off (time
 * switched out, outermost calls) in ns. 0, or -1 when out of memory. */
int kft_funcstats_call(struct kft_funcstats_build *b, uint32_t func, int64_t dur,
		       int64_t local, int64_t off, bool outermost);
/* What the outermost finished call of func just given encloses: nested
 * logged calls (for what --compensate took off it). */
void kft_funcstats_nested(struct kft_funcstats_build *b, uint32_t func, uint64_t nested);
/* One more call of func, met at place, under a call of parent. */
int kft_funcstats_child(struct kft_funcstats_build *b, uint32_t parent, uint32_t func,
			int64_t dur, const struct kft_call_place *place);
/* Sub-time, the order of children, Max-sub and the spread: fs is done.
 * 0, or -1 with err set (then abort). */
int kft_funcstats_build_finish(struct kft_funcstats_build *b, struct kft_error *err);
/* Stop here, fs as it is (for an arithmetic of its own: classic.c). */
void kft_funcstats_build_keep(struct kft_funcstats_build *b);
/* Give up: fs emptied. */
void kft_funcstats_build_abort(struct kft_funcstats_build *b);

/* From a tree on disk (spooltree.h). */
struct kft_spooltree;
int kft_funcstats_from_spool(struct kft_funcstats *fs, struct kft_spooltree *st,
			     struct kft_error *err);
/* classic.c: kd 1.1's arithmetic, straight from rows (a log's, or a
 * trace's: classic-rows.h; t then gets the functions, by bare name) */
struct kft_text_source;
int kft_funcstats_classic_from_rows(struct kft_funcstats *fs, struct kft_calltree *t,
				    const struct kft_text_source *src, struct kft_error *err);
/* One more call of func under s, first met (dur > 0 adds to the child's time). */
int kft_funcstats_add_child(struct kft_func_stat *s, uint32_t func, int64_t dur);
void kft_funcstats_free(struct kft_funcstats *fs);

#endif
