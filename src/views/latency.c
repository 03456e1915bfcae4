// SPDX-License-Identifier: GPL-2.0-only
/*
 * kft latency: the longest call of a function, as ftrace's latency
 * tracers kept their worst case (tracing_max_latency) and showed it in
 * the latency_trace layout: a header naming the latency, the task and
 * where it started and ended, then every call made during it, on that
 * thread and on the others, with times relative to its start and the
 * delay marks. Read from the call stream twice.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export-common.h"
#include "latency.h"
#include "views.h"

struct worst {
	struct kft_call call;
	bool found;
};

/* The longest finished call of a function named func. */
static int find_worst(struct export_ctx *x, const struct kft_trace *tr, const char *func,
		      struct worst *w, struct kft_error *err)
{
	struct kft_calls *cs = kft_calls_open(tr, NULL, 0, err);
	struct kft_call c;

	if (!cs)
		return -1;
	while (kft_calls_next(cs, &c) > 0) {
		uint32_t f;

		if (c.dur_ns < 0)
			continue;	/* unfinished, or a stack-watch row */
		if (export_func(x, &c, &f)) {
			kft_calls_close(cs);
			return kft_error_set(err, "out of memory");
		}
		if ((!strcmp(x->names.funcs[f].name, func) ||
		     !strcmp(x->names.funcs[f].base_name, func)) &&
		    (!w->found || c.dur_ns > w->call.dur_ns)) {
			w->call = c;
			w->found = true;
		}
	}
	kft_calls_close(cs);
	return 0;
}

/* ftrace's delay mark for the time to the next line. */
static char delay_mark(uint64_t ns)
{
	return ns > 100000 ? '!' : ns > 1000 ? '+' : ' ';
}

struct row {
	struct kft_call call;
	uint32_t func;
};

static void put_row(FILE *out, struct export_ctx *x, struct kft_symbolizer *sz,
		    const struct row *r, uint64_t start, uint64_t next)
{
	const struct kft_call *c = &r->call;
	char comm[32], caller[256], who[64];

	export_thread_name(x->tr, c->pid, c->tid, comm, sizeof(comm));
	snprintf(who, sizeof(who), "%s-%" PRIu32, comm, c->tid);
	kft_view_symbol(sz, kft_symbolizer_image(sz, c->session, c->entry_ns), c->call_site, false,
			caller, sizeof(caller));
	/* CPU, irqs-off, need-resched and preempt-depth are not known for a
	 * program's calls: '.'; hardirq/softirq: 'h' for a signal handler */
	fprintf(out, "%16s ...%c. %5" PRIu64 "us%c: %s (%s)\n", who,
		(c->flags & KFT_REC_SIGNAL) ? 'h' : '.', (c->entry_ns - start) / 1000,
		delay_mark(next - c->entry_ns), x->names.funcs[r->func].name, caller);
}

int kft_view_latency(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		     const char *func, size_t limit, struct kft_error *err)
{
	struct kft_export_opts o = { 0 };
	struct export_ctx x;
	struct worst w = { 0 };
	struct kft_calls *cs = NULL;
	struct kft_call c;
	struct row prev;
	uint64_t start, end, n = 0, shown = 0;
	bool have_prev = false;
	char comm[32];
	int ret = -1;

	if (export_begin(&x, tr, sz, &o, err) || find_worst(&x, tr, func, &w, err))
		goto out;
	if (!w.found) {
		kft_error_set(err, "no finished call of '%s' in the trace", func);
		goto out;
	}
	start = w.call.entry_ns;
	end = start + (uint64_t)w.call.dur_ns;
	/* how many calls the window holds, for the header's #n/n */
	if (!(cs = kft_calls_open(tr, NULL, 0, err)))
		goto out;
	while (kft_calls_next(cs, &c) > 0)
		if (c.dur_ns != -2 && c.entry_ns >= start && c.entry_ns <= end)
			n++;
	kft_calls_close(cs);
	export_thread_name(tr, w.call.pid, w.call.tid, comm, sizeof(comm));
	fprintf(out, "# tracer: kft\n"
		     "kft latency trace: the longest call of %s\n"
		     "latency: %" PRIu64 " us, #%" PRIu64 "/%" PRIu64 ", CPU#- | (M:- VP:0, KP:0, "
		     "SP:0 HP:0 #P:-)\n"
		     "| task: %s-%" PRIu32 "\n"
		     "=> started at: %s\n"
		     "=> ended at: %s\n",
		func, (uint64_t)w.call.dur_ns / 1000, limit < n ? limit : n, n, comm,
		w.call.tid, func, func);
	fputs("#                  _------=> CPU# (not known: .)\n"
	      "#                 / _-----=> irqs-off\n"
	      "#                | / _----=> need-resched\n"
	      "#                || / _---=> hardirq/softirq (h: a signal handler)\n"
	      "#                ||| / _--=> preempt-depth\n"
	      "#                |||| /\n"
	      "#                ||||| delay\n"
	      "#  cmd     pid   ||||| time  |   caller\n"
	      "#     \\   /      |||||   \\   |   /\n",
	      out);
	if (!(cs = kft_calls_open(tr, NULL, 0, err)))
		goto out;
	while (kft_calls_next(cs, &c) > 0 && shown < limit) {
		struct row r = { .call = c };

		if (c.dur_ns == -2 || c.entry_ns < start)
			continue;
		if (c.entry_ns > end)
			break;
		if (export_func(&x, &c, &r.func)) {
			kft_error_set(err, "out of memory");
			goto out;
		}
		if (have_prev) {
			put_row(out, &x, sz, &prev, start, c.entry_ns);
			shown++;
		}
		prev = r;
		have_prev = true;
	}
	if (have_prev && shown < limit)
		put_row(out, &x, sz, &prev, start, end);
	ret = ferror(out) ? kft_error_set(err, "write error") : 0;
out:
	kft_calls_close(cs);
	export_end(&x);
	return ret;
}
