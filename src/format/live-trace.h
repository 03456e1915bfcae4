/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A trace read while its program runs (kft pipe): each call once, as it
 * ends (records are written then), and each marker once, in the order
 * written. Each look opens the trace anew and goes on from where the
 * last stopped in each thread file, new files too.
 *
 * The runtime's helper may compress finished records and give their raw
 * pages back while we read: a page given back reads as zeros, which no
 * record is, so a zero record means "read it again from the compressed
 * file", which the next look opens. kft record cuts a finished thread's
 * file down by writing it anew and renaming it over the old one, so a
 * mapping stays whole; a file cut in place all the same (by an older kft)
 * raises SIGBUS past its new end, which ends the look (see
 * kft_live_catch_cut_files), with nothing given twice (a call counts as
 * given only once the callback has had it). When the program has ended,
 * kft record finishes the trace (compressing and cutting the files)
 * holding the directory's lock: kft_live_wait_finished waits for it, and
 * a last look reads the rest and the calls still open at the end.
 */
#ifndef KFT_LIVE_TRACE_H
#define KFT_LIVE_TRACE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "read-progress.h"
#include "reader.h"

struct kft_live_ops {
	/* a look at the trace as it stands now begins (before any call of it) */
	void (*look)(void *ctx);
	void (*call)(void *ctx, const struct kft_trace *tr, const struct kft_call *c);
	void (*mark)(void *ctx, const struct kft_trace *tr, const struct kft_mark *m);
	void *ctx;
};

struct kft_live_trace {
	const char *dir;
	struct kft_live_ops ops;
	const volatile sig_atomic_t *stop;	/* set: end the look early */
	struct kft_read_progress_set seen;	/* how far each thread file is read */
	uint64_t marks_read;			/* records of the marks file given */
};

/* SIGBUS from a file cut down under a look ends that look (asking for
 * another); outside a look it kills the process as it would have. */
void kft_live_catch_cut_files(void);

/* One look: 1 when the program has ended (and, with last, all is given),
 * 0 to look again, -1 out of memory. *again: a record was read too early
 * or a file was cut down (look again soon). */
int kft_live_look(struct kft_live_trace *lt, bool last, bool *again);

/* Wait until kft record has finished the trace (it holds the lock). */
void kft_live_wait_finished(const struct kft_live_trace *lt);

/* The trace's memory maps and saved symbols as they stand, folded into
 * one number: a new process image, a library opened and a finished
 * trace's symbols each change it. */
uint64_t kft_live_maps_signature(const char *dir);

void kft_live_free(struct kft_live_trace *lt);

#endif
