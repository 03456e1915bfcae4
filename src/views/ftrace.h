/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What ftrace's layouts share (ftrace.c: function_graph, and which
 * layout prints; ftrace-lines.c: function and latency): the calls
 * thread after thread (ftrace-threads.c), and where each thread was off
 * the CPU. Internal to src/views/.
 */
#ifndef KFT_VIEW_FTRACE_H
#define KFT_VIEW_FTRACE_H

#include "../format/call-stream.h"
#include "mark-cursor.h"
#include "views.h"

#define NAME_MAX_LEN 256

/* The spans a thread spent off the CPU, shown where they began, and
 * (the function layout) its wakeups. */
struct offcpu_cursor {
	const struct kft_offcpu *spans;
	size_t n, next;
	const struct kft_wakeup *wakes;
	size_t nwakes, next_wake;
	uint32_t tid, session;
	bool set;
};

/* Thread c's spans (none unless shown), from the start when the thread
 * is new to it. */
static inline void offcpu_follow(struct offcpu_cursor *oc, const struct kft_trace *tr,
				 bool shown, const struct kft_call *c)
{
	if (oc->set && oc->tid == c->tid && oc->session == c->session)
		return;
	oc->spans = shown ? kft_switches_of(&tr->switches, c->tid, &oc->n) : NULL;
	if (!oc->spans)
		oc->n = 0;
	oc->wakes = shown ? kft_switches_wakeups_of(&tr->switches, c->tid, &oc->nwakes) : NULL;
	if (!oc->wakes)
		oc->nwakes = 0;
	oc->next = oc->next_wake = 0;
	oc->tid = c->tid;
	oc->session = c->session;
	oc->set = true;
}

/* Threads one after another, each in time order. */
struct by_thread {
	const struct kft_trace *tr;
	size_t *order, *groups, ngroups, g;
	struct kft_calls *cs;
	struct kft_error *err;
	bool failed;
	bool switches;		/* show where threads left the CPU */
	bool inherited;		/* with the calls fork children began inside */
};

/* The next call into *c: 1, or 0 at the end (bt->failed on an error)
 * (ftrace-threads.c). */
int kft_ftrace_next_call(struct by_thread *bt, struct kft_call *c);

/* function's header, and one call's line (ftrace-lines.c) */
void kft_ftrace_function_header(FILE *out, const struct kft_ftrace_opts *o);
void kft_ftrace_function_row(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			     const struct kft_call *c, const struct kft_ftrace_opts *o);
void kft_ftrace_function_mark(FILE *out, const struct kft_trace *tr, const struct kft_mark *m);

/* function and latency: 0, or -1 with bt->err set. */
int kft_ftrace_print_function(FILE *out, struct by_thread *bt, struct kft_symbolizer *sz,
			      const struct kft_ftrace_opts *o);
int kft_ftrace_print_latency(FILE *out, struct by_thread *bt, struct kft_symbolizer *sz,
			     const struct kft_ftrace_opts *o);

#endif
