/* SPDX-License-Identifier: GPL-2.0-only */
/* kft latency: a function's longest call in ftrace's latency_trace layout. */
#ifndef KFT_VIEW_LATENCY_H
#define KFT_VIEW_LATENCY_H

#include <stdio.h>

#include "../format/reader.h"
#include "../symbols/symbolizer.h"

/* The longest finished call of func and every call (on any thread) that
 * began during it, at most limit lines. */
int kft_view_latency(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		     const char *func, size_t limit, struct kft_error *err);

/* The worst wakeup latency of a kernel trace (its sched_wakeup events):
 * from a task's wakeup to its switch in, with every call made meanwhile. */
int kft_view_wakeup_latency(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			    size_t limit, struct kft_error *err);

#endif
