// SPDX-License-Identifier: GPL-2.0-only
/*
 * kd's report, whichever engine reads the input: a trace's thread files
 * as call streams (the summary from one pass over the records, trees
 * from kd-stream.c), or rows that nest by caller name (a text log, a
 * trace read as kd 1.1 did) kept as a tree on disk (kd-spool.c).
 */
#include <string.h>

#include "../analysis/classic-rows.h"
#include "../analysis/funcstats-trace.h"
#include "../analysis/spooltree.h"
#include "kd-notes.h"
#include "kd.h"

/* Whether a column or the sort needs every call's duration. */
static bool wants_durations(const struct kft_kd_opts *o)
{
	const char *cols = o->columns ? o->columns : "Fctal";

	return strpbrk(cols, KFT_FUNCSTATS_TRACE_DURATIONS) ||
	       strchr(KFT_FUNCSTATS_TRACE_DURATIONS, o->sort);
}

/* kd's view of a tree kept on disk; st is freed. */
static int kd_spooled(FILE *out, struct kft_spooltree *st, const struct kft_kd_opts *o,
		      const struct kft_kd_request *rq, struct kft_error *err)
{
	struct kft_funcstats fs;
	int ret;

	if (rq->slowest_func) {
		ret = kft_view_kd_slowest_spool(out, st, o, rq->slowest_func, rq->slowest_n, err);
	} else if (rq->tree) {
		ret = kft_view_kd_tree_spool(out, st, o, err);
	} else {
		/* the summary needs no rows' places: their memory goes first */
		kft_spooltree_drop_places(st);
		ret = kft_funcstats_from_spool(&fs, st, err) ||
		      kft_view_kd_summary(out, &st->t, &fs, o, err);
		kft_funcstats_free(&fs);
	}
	kft_spooltree_free(st);
	return ret ? -1 : 0;
}

int kft_view_kd_rows(FILE *out, const struct kft_text_source *src, const struct kft_kd_opts *o,
		     const struct kft_kd_request *rq, struct kft_error *err)
{
	struct kft_spooltree st;
	struct kft_funcstats fs;
	struct kft_calltree t;
	int ret;

	if (o->classic && !rq->tree && !rq->slowest_func) {
		/* classic sums straight from the rows */
		ret = kft_funcstats_classic_from_rows(&fs, &t, src, err) ||
		      kft_view_kd_summary(out, &t, &fs, o, err);
		kft_funcstats_free(&fs);
		kft_calltree_free(&t);
		return ret ? -1 : 0;
	}
	if (kft_spooltree_build_text(&st, src, o->classic, err))
		return -1;
	return kd_spooled(out, &st, o, rq, err);
}

/* kd 1.1's nesting and sums, from the trace's calls as rows */
static int kd_classic(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		      const struct kft_kd_opts *o, const struct kft_kd_request *rq,
		      struct kft_error *err)
{
	struct kft_classic_rows *cr = kft_classic_rows_open(tr, sz, err);
	struct kft_text_source src;
	int ret;

	if (!cr)
		return -1;
	src = kft_classic_rows_source(cr);
	ret = kft_view_kd_rows(out, &src, o, rq, err);
	kft_classic_rows_close(cr);
	return ret;
}

int kft_view_kd_trace(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		      const struct kft_kd_opts *opts, const struct kft_kd_request *rq,
		      struct kft_error *err)
{
	struct kft_kd_opts o = *opts;
	struct kft_kd_notes notes = { 0 };
	struct kft_funcstats fs = { 0 };
	struct kft_calltree t;
	int ret;

	if (o.classic)
		return kd_classic(out, tr, sz, &o, rq, err);
	if (!rq->tree && !rq->slowest_func) {
		/* totals need no tree: one pass over the records (each thread
		 * file alone, the kernel calls a program call made found
		 * first) */
		ret = kft_funcstats_from_trace(&fs, &t, tr, sz, wants_durations(&o), err) ||
		      kft_view_kd_summary(out, &t, &fs, &o, err);
		kft_funcstats_free(&fs);
		kft_calltree_free(&t);
		return ret ? -1 : 0;
	}
	if (!o.interlace && !o.raw_order) {
		if (kft_kd_notes_take(&notes, tr, rq->switches, err))
			return -1;
		o.notes = &notes;
	}
	/* trees straight from the thread files' call streams */
	ret = rq->slowest_func ? kft_view_kd_slowest_stream(out, tr, sz, &o, rq->slowest_func,
							     rq->slowest_n, err)
	      : o.raw_order   ? kft_view_kd_rows_stream(out, tr, sz, &o, err)
	      : o.interlace   ? kft_view_kd_interlaced_stream(out, tr, sz, &o, err)
			      : kft_view_kd_tree_stream(out, tr, sz, &o, err);
	kft_kd_notes_free(&notes);
	return ret ? -1 : 0;
}
