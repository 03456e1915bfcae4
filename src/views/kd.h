/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kd's views: the report (kd-report.c: which engine reads the input),
 * the per-function summary (kd.c, from the totals of
 * analysis/funcstats-trace.h or, for text logs and --classic,
 * funcstats.h and classic.c) and the call trees, in every layout,
 * printed row by row by kd-rows.c from one of two sources: a trace's thread files read as call
 * streams (kd-stream.c), or a tree kept on disk (kd-spool.c, from
 * analysis/spooltree.h) for what nests by caller name: text logs and
 * --classic.
 */
#ifndef KFT_VIEW_KD_H
#define KFT_VIEW_KD_H

#include <stdbool.h>
#include <stdio.h>

#include "../analysis/calltree.h"
#include "../analysis/funcstats.h"

#define KFT_KD_SUMMARY_COLUMNS "FctarslmnuNXDMPQU"
#define KFT_KD_TREE_COLUMNS "etlp"
/* After the name of a call a fork child began inside: its parent's */
#define KFT_KD_INHERITED "/* inherited */"

struct kft_kd_opts {
	const char *columns;	/* column letters; NULL: the defaults */
	char sort;		/* a summary column letter */
	bool ascending;
	long limit;		/* -n: rows to show, -1 for all */
	long long min_time_us;	/* -t: hide functions whose Time is below */
	bool interlace;		/* -i */
	bool raw_order;		/* -r */
	int max_depth;		/* -d, for aligning saved arguments */
	int max_funclen;	/* -m, likewise */
	bool classic;
	/* -c: markers and off-CPU spans to show between the calls (kd-notes.h);
	 * NULL: none. Set only for plain trees (no -i, -r or --classic). */
	struct kft_kd_notes *notes;
};

/* What kd reports, beyond the layout. */
struct kft_kd_request {
	bool tree;			/* -c: call trees, not the summary */
	const char *slowest_func;	/* --slowest N FUNC; NULL: not asked */
	long slowest_n;
	bool switches;			/* --switches: off-CPU spans in the trees */
};

/* kd's report of a trace: by its thread files' call streams, or with
 * o->classic by kd 1.1's nesting by caller name (kd-report.c). */
int kft_view_kd_trace(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		      const struct kft_kd_opts *o, const struct kft_kd_request *rq,
		      struct kft_error *err);
/* kd's report of rows that nest by caller name (a text log), the trees
 * kept on disk. */
struct kft_text_source;
int kft_view_kd_rows(FILE *out, const struct kft_text_source *src, const struct kft_kd_opts *o,
		     const struct kft_kd_request *rq, struct kft_error *err);

int kft_view_kd_summary(FILE *out, const struct kft_calltree *t, const struct kft_funcstats *fs,
			const struct kft_kd_opts *o, struct kft_error *err);
/* The call trees, without -i, -r or --classic, streamed from a trace
 * whose thread files can be read one at a time (kft_thread_calls_joins):
 * what grows with the calls goes to a temporary file (common/spill.h),
 * and no tree is kept. */
int kft_view_kd_tree_stream(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			    const struct kft_kd_opts *o, struct kft_error *err);
/* The same trees with -i (other chains where they began), streamed. */
int kft_view_kd_interlaced_stream(FILE *out, const struct kft_trace *tr,
				  struct kft_symbolizer *sz, const struct kft_kd_opts *o,
				  struct kft_error *err);
/* The same rows with -r (in the order of the call stream), streamed. */
int kft_view_kd_rows_stream(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			    const struct kft_kd_opts *o, struct kft_error *err);
/* The n slowest calls of func, each with its subtree, streamed: found in
 * one pass over the records, each tree read from its thread's stream. */
int kft_view_kd_slowest_stream(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			       const struct kft_kd_opts *o, const char *func, long n,
			       struct kft_error *err);
/* The same trees, and the slowest calls, from a tree on disk. */
struct kft_spooltree;
int kft_view_kd_tree_spool(FILE *out, struct kft_spooltree *st, const struct kft_kd_opts *o,
			   struct kft_error *err);
int kft_view_kd_slowest_spool(FILE *out, struct kft_spooltree *st, const struct kft_kd_opts *o,
			      const char *func, long n, struct kft_error *err);

#endif
