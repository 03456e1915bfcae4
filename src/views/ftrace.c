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
#include "views.h"

/* Threads one after another, each in time order. */
struct by_thread {
	const struct kft_trace *tr;
	size_t *order, *groups, ngroups, g;
	struct kft_calls *cs;
	struct kft_error *err;
	bool failed;
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

/* ftrace's marks for long calls, then the duration in usec. */
static const char *graph_duration(int64_t ns, char *buf, size_t size)
{
	char mark = ' ';

	if (ns < 0)
		return "              ";
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
	snprintf(buf, size, "%c %5" PRId64 ".%03" PRId64 " us", mark, ns / 1000, ns % 1000);
	return buf;
}

struct open_call {
	struct kft_call call;
	unsigned int indent;
};

static void close_call(FILE *out, const struct open_call *oc, struct kft_symbolizer *sz)
{
	char dur[32], name[256];

	fprintf(out, "%7" PRIu32 ") %s |  %*s} /* %s%s */\n", oc->call.tid,
		graph_duration(oc->call.dur_ns, dur, sizeof(dur)), (int)oc->indent, "",
		kft_view_symbol(sz, kft_symbolizer_image(sz, oc->call.session, oc->call.entry_ns),
				oc->call.func, false, name, sizeof(name)),
		oc->call.dur_ns == -1 ? ": unfinished" : "");
}

static bool same_thread(const struct kft_call *a, const struct kft_call *b)
{
	return a->tid == b->tid && a->session == b->session && a->coroutine == b->coroutine;
}

static int print_graph(FILE *out, struct by_thread *bt, struct kft_symbolizer *sz,
		       struct kft_error *err)
{
	struct open_call *stack = NULL;
	size_t top = 0, cap = 0;
	struct kft_call prev, c, next;
	bool have_prev = false, have = next_call(bt, &c), have_next;

	fprintf(out, "# tracer: function_graph\n#\n"
		     "#   TID    DURATION         FUNCTION CALLS\n"
		     "#   |      |   |             |   |   |   |\n");
	for (; have; prev = c, c = next, have = have_next) {
		bool first = !have_prev, new_thread, parent;
		char dur[32], name[256];

		have_next = next_call(bt, &next);
		have_prev = true;
		if (c.dur_ns == -2)
			continue;	/* stack watch chains belong to `kft log` */
		new_thread = !first && !same_thread(&c, &prev);
		while (top && (new_thread || stack[top - 1].call.depth >= c.depth))
			close_call(out, &stack[--top], sz);
		if (new_thread)
			fprintf(out, "  ------------------------------------------\n");
		parent = have_next && same_thread(&next, &c) && next.depth > c.depth &&
			 next.dur_ns != -2;
		kft_view_symbol(sz, kft_symbolizer_image(sz, c.session, c.entry_ns), c.func, false,
				name, sizeof(name));
		if (!parent) {
			fprintf(out, "%7" PRIu32 ") %s |  %*s%s();%s\n", c.tid,
				graph_duration(c.dur_ns, dur, sizeof(dur)), (int)(2 * top), "",
				name, c.dur_ns == -1 ? " /* unfinished */" : "");
			continue;
		}
		fprintf(out, "%7" PRIu32 ") %s |  %*s%s() {\n", c.tid,
			graph_duration(-1, dur, sizeof(dur)), (int)(2 * top), "", name);
		if (top == cap) {
			struct open_call *bigger;

			cap = cap ? 2 * cap : 64;
			bigger = realloc(stack, cap * sizeof(*stack));
			if (!bigger) {
				free(stack);
				return kft_error_set(err, "out of memory");
			}
			stack = bigger;
		}
		stack[top].call = c;
		stack[top].indent = (unsigned int)(2 * top);
		top++;
	}
	while (top)
		close_call(out, &stack[--top], sz);
	free(stack);
	return 0;
}

static void print_function(FILE *out, struct by_thread *bt, struct kft_symbolizer *sz)
{
	struct kft_call c;

	fprintf(out, "# tracer: function\n#\n"
		     "#   TID      TIMESTAMP  FUNCTION\n"
		     "#   |            |         |\n");
	while (next_call(bt, &c)) {
		char name[256], caller[256];
		uint64_t image = kft_symbolizer_image(sz, c.session, c.entry_ns);

		if (c.dur_ns == -2)
			continue;
		fprintf(out, "%7" PRIu32 " %6" PRIu64 ".%06" PRIu64 ": %s <-%s\n", c.tid,
			c.entry_ns / 1000000000, c.entry_ns / 1000 % 1000000,
			kft_view_symbol(sz, image, c.func, false, name, sizeof(name)),
			kft_view_symbol(sz, image, c.call_site, true, caller,
					sizeof(caller)));
	}
}

int kft_view_ftrace(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		    enum kft_ftrace_tracer tracer, struct kft_error *err)
{
	struct by_thread bt = { .tr = tr, .err = err };
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
