/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A thread's markers (kft_printf, kft_mark) in time order, taken as a
 * view reaches their time: ftrace's layouts and the Perfetto export show
 * them where they were made. Internal to src/views/.
 */
#ifndef KFT_VIEW_MARK_CURSOR_H
#define KFT_VIEW_MARK_CURSOR_H

#include "../format/call-stream.h"
#include "../format/reader.h"

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

#endif
