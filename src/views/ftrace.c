// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftrace's `trace` layouts: function_graph (a call tree with durations)
 * and function (one line per entry with its caller). The kernel prints
 * CPUs interleaved; kft prints each thread's calls together, in order,
 * so that a thread's tree reads from top to bottom.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../format/calls.h"
#include "put.h"
#include "views.h"

/* The spans a thread spent off the CPU, shown where they began. */
struct offcpu_cursor {
	const struct kft_offcpu *spans;
	size_t n, next;
	uint32_t tid, session;
	bool set;
};

/* Thread c's spans (none unless shown), from the start when the thread
 * is new to it. */
static void offcpu_follow(struct offcpu_cursor *oc, const struct kft_trace *tr, bool shown,
			  const struct kft_call *c)
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

/* Threads one after another, each in time order. */
struct by_thread {
	const struct kft_trace *tr;
	size_t *order, *groups, ngroups, g;
	struct kft_calls *cs;
	struct kft_error *err;
	bool failed;
	bool switches;		/* show where threads left the CPU */
};

static int next_call(struct by_thread *bt, struct kft_call *c)
{
	for (;;) {
		if (bt->cs && kft_calls_next(bt->cs, c))
			return 1;
		kft_calls_close(bt->cs);
		bt->cs = NULL;
		if (bt->g == bt->ngroups)
			return 0;
		bt->cs = kft_calls_open(bt->tr, bt->order + bt->groups[bt->g],
					bt->groups[bt->g + 1] - bt->groups[bt->g], bt->err);
		bt->g++;
		if (!bt->cs) {
			bt->failed = true;
			return 0;
		}
	}
}

/* ftrace's marks for long calls, then the duration in usec: 14 columns
 * ("! 12345.678 us"), blank for a call with none. */
static char *put_duration(char *p, int64_t ns)
{
	char mark = ' ';

	if (ns < 0)
		return kft_put_blanks(p, 14);
	if (ns >= 1000000000LL)
		mark = '$';
	else if (ns >= 100000000LL)
		mark = '@';
	else if (ns >= 10000000LL)
		mark = '*';
	else if (ns >= 1000000LL)
		mark = '#';
	else if (ns >= 100000LL)
		mark = '!';
	else if (ns >= 10000LL)
		mark = '+';
	*p++ = mark;
	*p++ = ' ';
	p = kft_put_int(p, ns / 1000, 5);
	*p++ = '.';
	p = kft_put_zero_padded(p, (uint64_t)(ns % 1000), 3);
	return kft_put_str(p, " us", 0);
}

/* "TID) DURATION |  " and the indentation of a function_graph line. */
static char *graph_start(char *p, uint32_t tid, int64_t dur_ns, unsigned int indent)
{
	p = kft_put_int(p, tid, 7);
	*p++ = ')';
	*p++ = ' ';
	p = put_duration(p, dur_ns);
	p = kft_put_str(p, " |  ", 0);
	return kft_put_blanks(p, (int)indent);
}

struct open_call {
	struct kft_call call;
	unsigned int indent;
};

/* A line's buffer, as long as its indentation needs (a call 50000 deep is
 * indented 100000 blanks); NULL when out of memory. */
struct line {
	char *buf;
	size_t cap;
};

#define NAME_MAX_LEN 256

static char *line_for(struct line *l, unsigned int indent)
{
	size_t need = (size_t)indent + NAME_MAX_LEN + 64;
	char *bigger;

	if (need <= l->cap)
		return l->buf;
	bigger = realloc(l->buf, need);
	if (!bigger)
		return NULL;
	l->buf = bigger;
	l->cap = need;
	return bigger;
}

static int close_call(FILE *out, const struct open_call *oc, struct kft_symbolizer *sz,
		      struct line *l)
{
	char name[NAME_MAX_LEN], *line = line_for(l, oc->indent), *p = line;

	if (!line)
		return -1;
	kft_view_symbol(sz, kft_symbolizer_image(sz, oc->call.session, oc->call.entry_ns),
			oc->call.func, false, name, sizeof(name));
	p = graph_start(p, oc->call.tid, oc->call.dur_ns, oc->indent);
	p = kft_put_str(p, "} /* ", 0);
	p = kft_put_str(p, name, 0);
	p = kft_put_str(p, oc->call.dur_ns == -1 ? ": unfinished */\n" : " */\n", 0);
	fwrite(line, 1, (size_t)(p - line), out);
	return 0;
}

/* function_graph: the spans off the CPU that began before `before`, as
 * comments inside the calls then open. */
static int put_offcpu_comments(FILE *out, struct offcpu_cursor *oc, uint64_t before,
			       unsigned int indent, struct line *l)
{
	for (; oc->next < oc->n && oc->spans[oc->next].from_ns < before; oc->next++) {
		const struct kft_offcpu *s = &oc->spans[oc->next];
		char *line = line_for(l, indent), *p = line;
		uint64_t ns = s->to_ns - s->from_ns;

		if (!line)
			return -1;
		p = graph_start(p, oc->tid, -1, indent);
		p = kft_put_str(p, "/* off the CPU ", 0);
		p = kft_put_int(p, (int64_t)(ns / 1000), 0);
		*p++ = '.';
		p = kft_put_zero_padded(p, ns % 1000, 3);
		p = kft_put_str(p, s->preempted ? " us: preempted */\n" : " us: slept */\n", 0);
		fwrite(line, 1, (size_t)(p - line), out);
	}
	return 0;
}

static bool same_thread(const struct kft_call *a, const struct kft_call *b)
{
	return a->tid == b->tid && a->session == b->session && a->coroutine == b->coroutine;
}

static int print_graph(FILE *out, struct by_thread *bt, struct kft_symbolizer *sz,
		       struct kft_error *err)
{
	struct open_call *stack = NULL;
	struct offcpu_cursor oc = { 0 };
	size_t top = 0, cap = 0;
	struct kft_call prev, c, next;
	bool have_prev = false, have = next_call(bt, &c), have_next;
	struct line l = { 0 };
	int ret = 0;

	fprintf(out, "# tracer: function_graph\n#\n"
		     "#   TID    DURATION         FUNCTION CALLS\n"
		     "#   |      |   |             |   |   |   |\n");
	for (; have; prev = c, c = next, have = have_next) {
		bool first = !have_prev, new_thread, parent;
		char name[NAME_MAX_LEN], *line, *p;

		have_next = next_call(bt, &next);
		have_prev = true;
		if (c.dur_ns == -2)
			continue;	/* stack watch chains belong to `kft log` */
		new_thread = !first && !same_thread(&c, &prev);
		while (top && (new_thread || stack[top - 1].call.depth >= c.depth)) {
			const struct kft_call *e = &stack[top - 1].call;

			if (e->dur_ns >= 0 &&
			    put_offcpu_comments(out, &oc, e->entry_ns + (uint64_t)e->dur_ns,
						stack[top - 1].indent + 2, &l))
				goto oom;
			if (close_call(out, &stack[--top], sz, &l))
				goto oom;
		}
		if (new_thread) {
			if (put_offcpu_comments(out, &oc, UINT64_MAX, 0, &l))
				goto oom;
			fprintf(out, "  ------------------------------------------\n");
		}
		offcpu_follow(&oc, bt->tr, bt->switches, &c);
		if (put_offcpu_comments(out, &oc, c.entry_ns, (unsigned int)(2 * top), &l))
			goto oom;
		/* a call its thread left the CPU in opens, to show where */
		parent = (have_next && same_thread(&next, &c) && next.depth > c.depth &&
			  next.dur_ns != -2) ||
			 (oc.next < oc.n && (c.dur_ns < 0 || oc.spans[oc.next].from_ns <
								c.entry_ns + (uint64_t)c.dur_ns));
		kft_view_symbol(sz, kft_symbolizer_image(sz, c.session, c.entry_ns), c.func, false,
				name, sizeof(name));
		if (!(line = line_for(&l, (unsigned int)(2 * top))))
			goto oom;
		p = graph_start(line, c.tid, parent ? -1 : c.dur_ns, (unsigned int)(2 * top));
		p = kft_put_str(p, name, 0);
		if (!parent) {
			p = kft_put_str(p, c.dur_ns == -1 ? "(); /* unfinished */\n" : "();\n", 0);
			fwrite(line, 1, (size_t)(p - line), out);
			continue;
		}
		p = kft_put_str(p, "() {\n", 0);
		fwrite(line, 1, (size_t)(p - line), out);
		if (top == cap) {
			struct open_call *bigger;

			cap = cap ? 2 * cap : 64;
			bigger = realloc(stack, cap * sizeof(*stack));
			if (!bigger)
				goto oom;
			stack = bigger;
		}
		stack[top].call = c;
		stack[top].indent = (unsigned int)(2 * top);
		top++;
	}
	while (top) {
		const struct kft_call *e = &stack[top - 1].call;

		if (put_offcpu_comments(out, &oc, e->dur_ns >= 0 ? e->entry_ns + (uint64_t)e->dur_ns
								  : UINT64_MAX,
					stack[top - 1].indent + 2, &l) ||
		    close_call(out, &stack[--top], sz, &l))
			goto oom;
	}
	if (put_offcpu_comments(out, &oc, UINT64_MAX, 0, &l))
		goto oom;
out:
	free(stack);
	free(l.buf);
	return ret;
oom:
	ret = kft_error_set(err, "out of memory");
	goto out;
}

/* "TID  SSSSSS.UUUUUU: " */
static char *function_start(char *p, uint32_t tid, uint64_t ns)
{
	p = kft_put_int(p, tid, 7);
	*p++ = ' ';
	p = kft_put_int(p, (int64_t)(ns / 1000000000), 6);
	*p++ = '.';
	p = kft_put_zero_padded(p, ns / 1000 % 1000000, 6);
	*p++ = ':';
	*p++ = ' ';
	return p;
}

/* "TID:PRIO:STATE " (the priority left out when not known). */
static char *put_task(char *p, uint32_t tid, int16_t prio, char state)
{
	p = kft_put_int(p, tid, 0);
	*p++ = ':';
	if (prio >= 0) {
		p = kft_put_int(p, prio, 0);
		*p++ = ':';
	}
	*p++ = state;
	*p++ = ' ';
	return p;
}

/* function: each switch out and back in before `before`, as the
 * sched_switch tracer wrote them, "TID:S ==>" and "==> TID:R" (S: it
 * slept, R: preempted, runnable; the other task is not known here). */
static void put_switch_lines(FILE *out, struct offcpu_cursor *oc, uint64_t before)
{
	/* event 2k: span k's start, 2k + 1: its end */
	for (; oc->next < 2 * oc->n; oc->next++) {
		const struct kft_offcpu *s = &oc->spans[oc->next / 2];
		bool in = oc->next % 2;
		uint64_t at = in ? s->to_ns : s->from_ns;
		char line[128], *p;

		if (at >= before)
			break;
		p = function_start(line, oc->tid, at);
		/* the seed's "pid:prio:state ==> pid:prio:state", as much of
		 * it as is known */
		if (in) {
			if (s->from_tid != KFT_SWITCH_UNKNOWN_TID)
				p = put_task(p, s->from_tid, s->from_prio, s->from_state);
			p = kft_put_str(p, "==> ", 0);
			p = put_task(p, oc->tid, s->prio, 'R');
		} else {
			p = put_task(p, oc->tid, s->prio, s->state);
			p = kft_put_str(p, "==>", 0);
			if (s->to_tid != KFT_SWITCH_UNKNOWN_TID) {
				*p++ = ' ';
				p = put_task(p, s->to_tid, s->to_prio, 'R');
			}
		}
		if (p[-1] == ' ')
			p--;	/* the blank put_task ends with */
		*p++ = '\n';
		fwrite(line, 1, (size_t)(p - line), out);
	}
}

static void print_function(FILE *out, struct by_thread *bt, struct kft_symbolizer *sz)
{
	struct offcpu_cursor oc = { 0 };
	struct kft_call c;

	fprintf(out, "# tracer: function\n#\n"
		     "#   TID      TIMESTAMP  FUNCTION\n"
		     "#   |            |         |\n");
	while (next_call(bt, &c)) {
		char name[NAME_MAX_LEN], caller[NAME_MAX_LEN], line[2 * NAME_MAX_LEN + 64], *p = line;
		uint64_t image = kft_symbolizer_image(sz, c.session, c.entry_ns);

		if (c.dur_ns == -2)
			continue;
		if (oc.set && (oc.tid != c.tid || oc.session != c.session))
			put_switch_lines(out, &oc, UINT64_MAX);
		offcpu_follow(&oc, bt->tr, bt->switches, &c);
		put_switch_lines(out, &oc, c.entry_ns);
		kft_view_symbol(sz, image, c.func, false, name, sizeof(name));
		kft_view_symbol(sz, image, c.call_site, true, caller, sizeof(caller));
		/* "TID  SSSSSS.UUUUUU: name <-caller" */
		p = function_start(p, c.tid, c.entry_ns);
		p = kft_put_str(p, name, 0);
		p = kft_put_str(p, " <-", 0);
		p = kft_put_str(p, caller, 0);
		*p++ = '\n';
		fwrite(line, 1, (size_t)(p - line), out);
	}
	put_switch_lines(out, &oc, UINT64_MAX);
}

int kft_view_ftrace(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		    enum kft_ftrace_tracer tracer, bool switches, struct kft_error *err)
{
	struct by_thread bt = { .tr = tr, .err = err, .switches = switches };
	int ret = 0;

	if (kft_calls_thread_groups(tr, &bt.order, &bt.groups, &bt.ngroups, err))
		return -1;
	if (tracer == KFT_FTRACE_GRAPH)
		ret = print_graph(out, &bt, sz, err);
	else
		print_function(out, &bt, sz);
	kft_calls_close(bt.cs);
	free(bt.order);
	free(bt.groups);
	return ret || bt.failed ? -1 : 0;
}
