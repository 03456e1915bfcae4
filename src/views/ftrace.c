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

#include "views.h"

/* Threads together, each in time order (kft_trace_calls sorts by time). */
static int by_thread(const void *a, const void *b)
{
	const struct kft_call *x = a, *y = b;

	if (x->session != y->session)
		return x->session < y->session ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->entry_ns != y->entry_ns)
		return x->entry_ns < y->entry_ns ? -1 : 1;
	return x->depth < y->depth ? -1 : x->depth > y->depth;
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
	const struct kft_call *call;
	unsigned int indent;
};

static void close_call(FILE *out, const struct open_call *oc, struct kft_symbolizer *sz)
{
	char dur[32], name[256];

	fprintf(out, "%7" PRIu32 ") %s |  %*s} /* %s%s */\n", oc->call->tid,
		graph_duration(oc->call->dur_ns, dur, sizeof(dur)), (int)oc->indent, "",
		kft_view_symbol(sz, oc->call->session, oc->call->func, false, name, sizeof(name)),
		oc->call->dur_ns == -1 ? ": unfinished" : "");
}

static int print_graph(FILE *out, const struct kft_call *calls, size_t n,
		       struct kft_symbolizer *sz, struct kft_error *err)
{
	struct open_call *stack = NULL;
	size_t top = 0, cap = 0;

	fprintf(out, "# tracer: function_graph\n#\n"
		     "#   TID    DURATION         FUNCTION CALLS\n"
		     "#   |      |   |             |   |   |   |\n");
	for (size_t i = 0; i < n; i++) {
		const struct kft_call *c = &calls[i], *next = i + 1 < n ? &calls[i + 1] : NULL;
		bool new_thread = i == 0 || c->tid != calls[i - 1].tid ||
				  c->session != calls[i - 1].session;
		bool parent;
		char dur[32], name[256];

		if (c->dur_ns == -2)
			continue;	/* stack watch chains belong to `kft log` */
		while (top && (new_thread || stack[top - 1].call->depth >= c->depth))
			close_call(out, &stack[--top], sz);
		if (new_thread && i)
			fprintf(out, "  ------------------------------------------\n");
		parent = next && next->tid == c->tid && next->session == c->session &&
			 next->depth > c->depth && next->dur_ns != -2;
		kft_view_symbol(sz, c->session, c->func, false, name, sizeof(name));
		if (!parent) {
			fprintf(out, "%7" PRIu32 ") %s |  %*s%s();%s\n", c->tid,
				graph_duration(c->dur_ns, dur, sizeof(dur)), (int)(2 * top), "",
				name, c->dur_ns == -1 ? " /* unfinished */" : "");
			continue;
		}
		fprintf(out, "%7" PRIu32 ") %s |  %*s%s() {\n", c->tid,
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

static void print_function(FILE *out, const struct kft_call *calls, size_t n,
			   struct kft_symbolizer *sz)
{
	fprintf(out, "# tracer: function\n#\n"
		     "#   TID      TIMESTAMP  FUNCTION\n"
		     "#   |            |         |\n");
	for (size_t i = 0; i < n; i++) {
		const struct kft_call *c = &calls[i];
		char name[256], caller[256];

		if (c->dur_ns == -2)
			continue;
		fprintf(out, "%7" PRIu32 " %6" PRIu64 ".%06" PRIu64 ": %s <-%s\n", c->tid,
			c->entry_ns / 1000000000, c->entry_ns / 1000 % 1000000,
			kft_view_symbol(sz, c->session, c->func, false, name, sizeof(name)),
			kft_view_symbol(sz, c->session, c->call_site, true, caller,
					sizeof(caller)));
	}
}

int kft_view_ftrace(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		    enum kft_ftrace_tracer tracer, struct kft_error *err)
{
	struct kft_call *calls;
	size_t n;
	int ret = 0;

	if (kft_trace_calls(tr, &calls, &n, err))
		return -1;
	qsort(calls, n, sizeof(*calls), by_thread);
	if (tracer == KFT_FTRACE_GRAPH)
		ret = print_graph(out, calls, n, sz, err);
	else
		print_function(out, calls, n, sz);
	free(calls);
	return ret;
}
