/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-function totals from a kft trace in one pass (see funcstats-trace.c). */
#ifndef KFT_FUNCSTATS_TRACE_H
#define KFT_FUNCSTATS_TRACE_H

#include "funcstats.h"

/* The columns it can fill: every one; the percentiles (and with them the
 * deviation) from each call's duration, kept (analysis/durations.h). */
#define KFT_FUNCSTATS_TRACE_COLUMNS "FctarslmnuNXDMPQUo"
#define KFT_FUNCSTATS_TRACE_DURATIONS "MPQ"

/* Fills fs, and t with the functions only (no calls); durations: keep
 * them, for the percentile columns. */
int kft_funcstats_from_trace(struct kft_funcstats *fs, struct kft_calltree *t,
			     const struct kft_trace *tr, struct kft_symbolizer *sz,
			     bool durations, struct kft_error *err);

#endif
