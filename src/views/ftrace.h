/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What ftrace's layouts share (ftrace.c: function_graph; ftrace-lines.c:
 * function and latency): the calls thread after thread, and where each
 * thread was off the CPU. Internal to src/views/.
 */
#ifndef KFT_VIEW_FTRACE_H
#define KFT_VIEW_FTRACE_H

#include "../format/calls.h"
#include "views.h"

#define NAME_MAX_LEN 256

/* The spans a thread spent off the CPU, shown where they began. */
struct offcpu_cursor {
	const struct kft_offcpu *spans;
	size_t n, next;
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
	oc->next = 0;
	oc->tid = c->tid;
	oc->session = c->session;
	oc->set = true;
}

/* A thread's markers (kft_printf), shown where they were made. */
struct mark_cursor {
	const struct kft_trace *tr;
	size_t next;			/* the next of the thread's, or tr->nmarks */
	uint32_t tid, session;
	bool set;
};

static inline void mark_skip_others(struct mark_cursor *mc)
{
	const struct kft_trace *tr = mc->tr;

	while (mc->next < tr->nmarks &&
	       (tr->marks[mc->next].tid != mc->tid || tr->marks[mc->next].session != mc->session))
		mc->next++;
}

/* Thread c's markers, from the first when the thread is new to it. */
static inline void mark_follow(struct mark_cursor *mc, const struct kft_trace *tr,
			       const struct kft_call *c)
{
	if (mc->set && mc->tid == c->tid && mc->session == c->session)
		return;
	mc->tr = tr;
	mc->next = 0;
	mc->tid = c->tid;
	mc->session = c->session;
	mc->set = true;
	mark_skip_others(mc);
}

/* The thread's next marker made before `before`, taken; NULL if none. */
static inline const struct kft_mark *mark_before(struct mark_cursor *mc, uint64_t before)
{
	const struct kft_mark *m;

	if (!mc->set || mc->next >= mc->tr->nmarks || mc->tr->marks[mc->next].ns >= before)
		return NULL;
	m = &mc->tr->marks[mc->next++];
	mark_skip_others(mc);
	return m;
}

/* Threads one after another, each in time order. */
struct by_thread {
	const struct kft_trace *tr;
	size_t *order, *groups, ngroups, g;
	struct kft_calls *cs;
	struct kft_error *err;
	bool failed;
	bool switches;		/* show where threads left the CPU */
};

/* The next call into *c: 1, or 0 at the end (bt->failed on an error). */
int ftrace_next_call(struct by_thread *bt, struct kft_call *c);

/* function's header, and one call's line (ftrace-lines.c) */
void ftrace_function_header(FILE *out, const struct kft_ftrace_opts *o);
void ftrace_function_row(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			 const struct kft_call *c, const struct kft_ftrace_opts *o);

/* function and latency: 0, or -1 with bt->err set. */
int ftrace_print_function(FILE *out, struct by_thread *bt, struct kft_symbolizer *sz,
			  const struct kft_ftrace_opts *o);
int ftrace_print_latency(FILE *out, struct by_thread *bt, struct kft_symbolizer *sz,
			 const struct kft_ftrace_opts *o);

#endif
