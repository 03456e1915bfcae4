/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kft diff: what changed between two traces of a program, per function
 * (calls, total time, local time, 99th percentile; the largest change in
 * time first) and per call path (calls, time, own time; the largest
 * change in own time first, so a regression shows where it entered).
 */
#ifndef KFT_VIEW_DIFF_H
#define KFT_VIEW_DIFF_H

#include <stdio.h>

#include "../format/reader.h"
#include "../symbols/symbolizer.h"

struct kft_diff_opts {
	long limit;		/* rows a table, -1: all */
	bool paths;		/* the call paths' table too */
};

int kft_view_diff(FILE *out, const struct kft_trace *old, struct kft_symbolizer *old_sz,
		  const struct kft_trace *new, struct kft_symbolizer *new_sz,
		  const struct kft_diff_opts *o, struct kft_error *err);

#endif
