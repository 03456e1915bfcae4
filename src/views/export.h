/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Exports: a trace in the formats other tools read, written as the call
 * stream is read (memory bounded by the functions, the call stacks and
 * the threads, never by the calls).
 */
#ifndef KFT_VIEW_EXPORT_H
#define KFT_VIEW_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "../format/reader.h"
#include "../symbols/symbolizer.h"

struct kft_export_opts {
	int64_t min_ns;			/* calls shorter than this are left out */
	const char *const *only;	/* globs: calls of matching functions only */
	size_t nonly;
	const char *const *notrace;	/* globs: calls of these left out (wins) */
	size_t nnotrace;
	bool self;			/* folded: each stack's own time, not its total */
	bool raw;			/* perfetto: packets not compressed */
	bool switches;			/* perfetto: the spans off the CPU too */
	bool progress;			/* a percentage on stderr as it goes */
};

/* What an export wrote. */
struct kft_export_result {
	uint64_t calls;			/* calls read */
	uint64_t written;		/* events (chrome), slices (perfetto), stacks (folded) */
};

/*
 * Chrome's Trace Event Format: one complete event ("ph": "X") a call,
 * ts and dur in microseconds with nanosecond decimals, process and
 * thread names as metadata events. A call still open when the run
 * stopped lasts until then, with args.unfinished.
 */
int kft_export_chrome(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		      const struct kft_export_opts *o, struct kft_export_result *res,
		      struct kft_error *err);

/*
 * Perfetto's protobuf trace: tracks for processes, threads, coroutines
 * and signal handlers, a slice a call (one still open when the run
 * stopped lasts until then, annotated "unfinished"), kernel calls under
 * the program calls that made them (category "kernel"). Packets are
 * deflated in blocks unless compress is false.
 */
int kft_export_perfetto(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			const struct kft_export_opts *o, bool compress,
			struct kft_export_result *res, struct kft_error *err);

/*
 * Folded stacks, as flame graph tools read them: "main;a;b N", one line a
 * distinct call stack, N its time in nanoseconds (its own time, or with
 * self false the calls' whole time). Threads' stacks add up.
 */
int kft_export_folded(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		      const struct kft_export_opts *o, struct kft_export_result *res,
		      struct kft_error *err);

#endif
