// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftrace's `trace` layouts: function_graph (a call tree with durations)
 * here; function and latency_trace in ftrace-lines.c. The kernel prints
 * CPUs interleaved; kft prints each thread's calls together, in order,
 * so that a thread's tree reads from top to bottom.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/nest.h"
#include "../format/call-args.h"
#include "ftrace.h"
#include "put.h"

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

/* A call's saved arguments and return value as text (empty: none). */
struct call_text {
	char args[KFT_ARGS_TEXT_MAX];
	char ret[KFT_ARGS_TEXT_MAX];
};

static void call_text(const struct kft_trace *tr, const struct kft_call *c, struct call_text *t)
{
	struct kft_call_args a;

	t->args[0] = t->ret[0] = '\0';
	if (!tr->nargs || !kft_call_args(tr, c, &a))
		return;
	kft_args_text(&a, t->args, sizeof(t->args));
	kft_retval_text(&a, t->ret, sizeof(t->ret));
}

/* "name(ARGS)" as a call opens; for a leaf, its return value in a
 * comment as funcgraph-retval shows it, or why there is none. */
static char *put_call(char *p, const char *name, const struct call_text *t,
		      const struct kft_call *c, bool leaf)
{
	p = kft_put_str(p, name, 0);
	*p++ = '(';
	p = kft_put_str(p, t->args, 0);
	*p++ = ')';
	if (!leaf)
		return kft_put_str(p, c->flags & KFT_CALL_INHERITED ? " { /* inherited */\n"
								 : " {\n", 0);
	if (c->flags & KFT_CALL_INHERITED)
		return kft_put_str(p, "; /* inherited */\n", 0);
	if (c->dur_ns == -1)
		return kft_put_str(p, "; /* unfinished */\n", 0);
	if (!t->ret[0])
		return kft_put_str(p, ";\n", 0);
	p = kft_put_str(p, "; /* = ", 0);
	p = kft_put_str(p, t->ret, 0);
	return kft_put_str(p, " */\n", 0);
}

/* A line's buffer, as long as its indentation needs (a call 50000 deep is
 * indented 100000 blanks); NULL when out of memory. */
struct line {
	char *buf;
	size_t cap;
};


static char *line_for(struct line *l, unsigned int indent)
{
	size_t need = (size_t)indent + NAME_MAX_LEN + sizeof(struct call_text) + 64;
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

static int close_call(FILE *out, const struct kft_trace *tr, const struct kft_call *c,
		      unsigned int indent, struct kft_symbolizer *sz, struct line *l)
{
	char name[NAME_MAX_LEN], *line = line_for(l, indent), *p = line;
	struct call_text t;

	if (!line)
		return -1;
	kft_symbol_text(sz, kft_symbolizer_image(sz, c->map_session, c->entry_ns), c->func, false,
			name, sizeof(name));
	call_text(tr, c, &t);
	p = graph_start(p, c->tid, c->dur_ns, indent);
	p = kft_put_str(p, "} /* ", 0);
	p = kft_put_str(p, name, 0);
	if (t.ret[0] && c->dur_ns >= 0) {
		p = kft_put_str(p, " = ", 0);
		p = kft_put_str(p, t.ret, 0);
	}
	p = kft_put_str(p, c->flags & KFT_CALL_INHERITED ? ": inherited */\n"
			   : c->dur_ns == -1		? ": unfinished */\n"
							: " */\n",
			0);
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

/* function_graph: the thread's markers made before `before`, as comment
 * lines inside the calls then open, as ftrace shows trace_marker. */
static int put_mark_comments(FILE *out, struct mark_cursor *mc, uint64_t before,
			     unsigned int indent, struct line *l)
{
	const struct kft_mark *m;

	while ((m = mark_before(mc, before))) {
		char *line = line_for(l, indent), *p = line;

		if (!line)
			return -1;
		p = graph_start(p, mc->tid, -1, indent);
		p = kft_put_str(p, "/* ", 0);
		p = kft_view_mark_text(p, m);
		p = kft_put_str(p, " */\n", 0);
		fwrite(line, 1, (size_t)(p - line), out);
	}
	return 0;
}

/* Both kinds of comment lines, before `before`. */
static int put_comments(FILE *out, struct offcpu_cursor *oc, struct mark_cursor *mc,
			uint64_t before, unsigned int indent, struct line *l)
{
	return put_offcpu_comments(out, oc, before, indent, l) ||
	       put_mark_comments(out, mc, before, indent, l) ? -1 : 0;
}

static bool same_thread(const struct kft_call *a, const struct kft_call *b)
{
	return a->tid == b->tid && a->session == b->session && a->coroutine == b->coroutine;
}

static void graph_header(FILE *out)
{
	fprintf(out, "# tracer: function_graph\n#\n"
		     "#   TID    DURATION         FUNCTION CALLS\n"
		     "#   |      |   |             |   |   |   |\n");
}

void kft_view_ftrace_header(FILE *out, const struct kft_ftrace_opts *o)
{
	if (o->tracer == KFT_FTRACE_GRAPH)
		graph_header(out);
	else
		kft_ftrace_function_header(out, o);
}

void kft_view_ftrace_row(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			 const struct kft_call *c, const struct kft_ftrace_opts *o)
{
	char name[NAME_MAX_LEN], line[2 * NAME_MAX_LEN + sizeof(struct call_text) + 64], *p;
	unsigned int indent = 2 * (c->depth < NAME_MAX_LEN / 2 ? c->depth : NAME_MAX_LEN / 2);
	struct call_text t;

	if (o->tracer != KFT_FTRACE_GRAPH) {
		kft_ftrace_function_row(out, tr, sz, c, o);
		return;
	}
	kft_symbol_text(sz, kft_symbolizer_image(sz, c->map_session, c->entry_ns), c->func, false,
			name, sizeof(name));
	call_text(tr, c, &t);
	p = graph_start(line, c->tid, c->dur_ns, indent);
	p = put_call(p, name, &t, c, true);
	fwrite(line, 1, (size_t)(p - line), out);
}

void kft_view_ftrace_mark(FILE *out, const struct kft_trace *tr, const struct kft_mark *m,
			  const struct kft_ftrace_opts *o)
{
	char line[KFT_MARK_TEXT + 128], *p;

	if (o->tracer != KFT_FTRACE_GRAPH) {
		kft_ftrace_function_mark(out, tr, m);
		return;
	}
	p = graph_start(line, m->tid, -1, 2 * (m->depth < 32 ? m->depth : 32));
	p = kft_put_str(p, "/* ", 0);
	p = kft_view_mark_text(p, m);
	p = kft_put_str(p, " */\n", 0);
	fwrite(line, 1, (size_t)(p - line), out);
}

static int print_graph(FILE *out, struct by_thread *bt, struct kft_symbolizer *sz,
		       struct kft_error *err)
{
	struct kft_nest open = { 0 };	/* the calls open that opened a row */
	struct offcpu_cursor oc = { 0 };
	struct mark_cursor mc = { 0 };
	struct kft_call prev, c, next;
	bool have_prev = false, have = kft_ftrace_next_call(bt, &c), have_next;
	struct line l = { 0 };
	int ret = 0;

	graph_header(out);
	for (; have; prev = c, c = next, have = have_next) {
		bool first = !have_prev, new_thread, parent;
		char name[NAME_MAX_LEN], *line, *p;
		const struct kft_nest_open *e;
		struct call_text t;

		have_next = kft_ftrace_next_call(bt, &next);
		have_prev = true;
		if (c.dur_ns == -2)
			continue;	/* stack watch chains belong to `kft log` */
		new_thread = !first && !same_thread(&c, &prev);
		while ((e = new_thread ? kft_nest_top(&open) : kft_nest_closes(&open, &c))) {
			unsigned int indent = (unsigned int)(2 * (open.n - 1));

			if (e->call.dur_ns >= 0 &&
			    put_comments(out, &oc, &mc, e->call.entry_ns + (uint64_t)e->call.dur_ns,
					 indent + 2, &l))
				goto oom;
			if (close_call(out, bt->tr, &e->call, indent, sz, &l))
				goto oom;
			kft_nest_pop(&open);
		}
		if (new_thread) {
			if (put_comments(out, &oc, &mc, UINT64_MAX, 0, &l))
				goto oom;
			fprintf(out, "  ------------------------------------------\n");
		}
		offcpu_follow(&oc, bt->tr, bt->switches, &c);
		mark_follow(&mc, bt->tr, &c);
		if (put_comments(out, &oc, &mc, c.entry_ns, (unsigned int)(2 * open.n), &l))
			goto oom;
		/* a call its thread left the CPU in, or made a marker in, opens,
		 * to show where */
		parent = (have_next && same_thread(&next, &c) && next.depth > c.depth &&
			  next.dur_ns != -2) ||
			 (oc.next < oc.n && (c.dur_ns < 0 || oc.spans[oc.next].from_ns <
								c.entry_ns + (uint64_t)c.dur_ns)) ||
			 (mc.next < bt->tr->nmarks &&
			  (c.dur_ns < 0 || bt->tr->marks[mc.next].ns < c.entry_ns + (uint64_t)c.dur_ns));
		kft_symbol_text(sz, kft_symbolizer_image(sz, c.map_session, c.entry_ns), c.func, false,
				name, sizeof(name));
		call_text(bt->tr, &c, &t);
		if (!(line = line_for(&l, (unsigned int)(2 * open.n))))
			goto oom;
		p = graph_start(line, c.tid, parent ? -1 : c.dur_ns, (unsigned int)(2 * open.n));
		p = put_call(p, name, &t, &c, !parent);
		fwrite(line, 1, (size_t)(p - line), out);
		if (parent && !kft_nest_push(&open, &c, (uint32_t)open.n))
			goto oom;
	}
	for (const struct kft_nest_open *e; (e = kft_nest_top(&open)); kft_nest_pop(&open)) {
		unsigned int indent = (unsigned int)(2 * (open.n - 1));

		if (put_comments(out, &oc, &mc,
				 e->call.dur_ns >= 0 ? e->call.entry_ns + (uint64_t)e->call.dur_ns
						     : UINT64_MAX,
				 indent + 2, &l) ||
		    close_call(out, bt->tr, &e->call, indent, sz, &l))
			goto oom;
	}
	if (put_comments(out, &oc, &mc, UINT64_MAX, 0, &l))
		goto oom;
out:
	kft_nest_free(&open);
	free(l.buf);
	return ret;
oom:
	ret = kft_error_set(err, "out of memory");
	goto out;
}

int kft_view_ftrace(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		    const struct kft_ftrace_opts *o, struct kft_error *err)
{
	struct by_thread bt = { .tr = tr, .err = err, .switches = o->switches };
	int ret = 0;

	if (kft_calls_thread_groups(tr, &bt.order, &bt.groups, &bt.ngroups, err))
		return -1;
	bt.inherited = o->tracer == KFT_FTRACE_GRAPH;
	if (bt.inherited)
		ret = print_graph(out, &bt, sz, err);
	else if (o->tracer == KFT_FTRACE_FUNCTION)
		ret = kft_ftrace_print_function(out, &bt, sz, o);
	else
		ret = kft_ftrace_print_latency(out, &bt, sz, o);
	kft_calls_close(bt.cs);
	free(bt.order);
	free(bt.groups);
	return ret || bt.failed ? -1 : 0;
}
