/* SPDX-License-Identifier: GPL-2.0-only */
/* kft flame: a flame graph of a trace as one self-contained SVG. */
#ifndef KFT_VIEW_FLAME_H
#define KFT_VIEW_FLAME_H

#include "export.h"

/*
 * Each distinct call stack a box as wide as its calls' time, titled
 * title; o's filters as for the exports. res->written: boxes drawn (those
 * narrower than a tenth of a pixel are left out).
 */
int kft_view_flame(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		   const struct kft_export_opts *o, const char *title,
		   struct kft_export_result *res, struct kft_error *err);

/*
 * A flame chart: time left to right, a lane for each thread (and each of
 * its coroutines, its signal handlers), each call a box from its entry to
 * its exit above its caller. res->written: boxes drawn.
 */
int kft_view_flame_chart(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			 const struct kft_export_opts *o, const char *title,
			 struct kft_export_result *res, struct kft_error *err);

#endif
