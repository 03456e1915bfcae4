/* SPDX-License-Identifier: GPL-2.0-only */
/* What the exports share: names, the filters, times, progress. */
#ifndef KFT_EXPORT_COMMON_H
#define KFT_EXPORT_COMMON_H

#include "../analysis/functable.h"
#include "../format/call-stream.h"
#include "export.h"

struct export_ctx {
	const struct kft_trace *tr;
	const struct kft_export_opts *o;
	struct kft_calltree names;	/* funcs only: kd's names */
	struct kft_functable ft;
	bool *dropped;			/* per func: a glob leaves it out */
	size_t ndropped;
	uint64_t base;			/* times are ns since the first start */
	uint64_t end;			/* where calls still open end */
	uint64_t total, seen;		/* calls in the stream, read so far */
	int shown;			/* the percentage on stderr */
	uint64_t started_ns;		/* progress shows after a second */
};

/* Names and filters set, every function met. kft_export_end() after it, also
 * when it fails (ending twice is harmless). */
int kft_export_begin(struct export_ctx *x, const struct kft_trace *tr, struct kft_symbolizer *sz,
		     const struct kft_export_opts *o, struct kft_error *err);
void kft_export_end(struct export_ctx *x);

/* c's function; -1 when out of memory. */
int kft_export_func(struct export_ctx *x, const struct kft_call *c, uint32_t *func);

/* Whether call c of function func is exported (its duration, the globs). */
bool kft_export_kept(const struct export_ctx *x, const struct kft_call *c, uint32_t func);

/* c's entry and its duration (to the end of the run if still open), in
 * ns since the first start. */
uint64_t kft_export_entry(const struct export_ctx *x, const struct kft_call *c);
uint64_t kft_export_duration(const struct export_ctx *x, const struct kft_call *c);

/* The name a thread file gives pid's thread tid (tid 0: the process's,
 * its first file's), or else its number. */
void kft_export_thread_name(const struct kft_trace *tr, uint32_t pid, uint32_t tid, char *out,
			    size_t size);

/* One more call read: the percentage on stderr, when asked. */
void kft_export_progress(struct export_ctx *x);

#endif
