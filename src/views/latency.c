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
#include "latency-trace.h"
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
		if (kft_export_func(x, &c, &f)) {
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

struct row {
	struct kft_call call;
	uint32_t func;
};

static void put_row(FILE *out, struct export_ctx *x, struct kft_symbolizer *sz,
		    const struct row *r, uint64_t start, uint64_t next)
{
	const struct kft_call *c = &r->call;
	char comm[32], caller[256];

	kft_export_thread_name(x->tr, c->pid, c->tid, comm, sizeof(comm));
	kft_caller_text(sz, kft_symbolizer_image(sz, c->map_session, c->entry_ns), c->call_site, false,
			caller, sizeof(caller));
	kft_lat_row(out, &(struct kft_lat_row){
				 .comm = comm, .pid = c->tid,
				 .cpu = kft_switches_cpu_at(&x->tr->switches, c->tid, c->entry_ns),
				 .handler = c->flags & KFT_REC_SIGNAL, .entry_ns = c->entry_ns,
				 .rel_ns = c->entry_ns - start, .delay_ns = next - c->entry_ns,
				 .func = x->names.funcs[r->func].name, .caller = caller });
}

/* A latency's window, and what the header says of it. */
struct window {
	uint64_t start, end;		/* since the clock base */
	uint32_t pid, tid;
	const char *tracer, *what;
	char started[128], ended[128], cpu[16];
	int64_t only_cpu;		/* >= 0: leave out calls known to run elsewhere */
};

/* Whether c is shown in the window: on its CPU, or where not known. */
static bool on_window_cpu(const struct window *wd, const struct kft_trace *tr,
			  const struct kft_call *c)
{
	int64_t cpu;

	if (wd->only_cpu < 0)
		return true;
	cpu = kft_switches_cpu_at(&tr->switches, c->tid, c->entry_ns);
	return cpu < 0 || cpu == wd->only_cpu;
}

/* The header, then every call that began in the window. */
static int print_window(FILE *out, struct export_ctx *x, const struct kft_trace *tr,
			struct kft_symbolizer *sz, const struct window *wd, size_t limit,
			struct kft_error *err)
{
	struct kft_calls *cs;
	struct kft_call c;
	struct row prev;
	uint64_t n = 0, shown = 0;
	bool have_prev = false;
	char comm[32], task[64];

	/* how many calls the window holds, for the header's #n/n */
	if (!(cs = kft_calls_open(tr, NULL, 0, err)))
		return -1;
	while (kft_calls_next(cs, &c) > 0)
		if (c.dur_ns != -2 && c.entry_ns >= wd->start && c.entry_ns <= wd->end &&
		    on_window_cpu(wd, tr, &c))
			n++;
	kft_calls_close(cs);
	kft_export_thread_name(tr, wd->pid, wd->tid, comm, sizeof(comm));
	snprintf(task, sizeof(task), "%s-%" PRIu32, comm, wd->tid);
	kft_lat_head(out, &(struct kft_lat_head){ .tracer = wd->tracer, .title = wd->what,
						   .latency_us = (wd->end - wd->start) / 1000,
						   .shown = limit < n ? limit : n, .total = n,
						   .cpu = wd->cpu, .task = task,
						   .started = wd->started, .ended = wd->ended });
	if (!(cs = kft_calls_open(tr, NULL, 0, err)))
		return -1;
	while (kft_calls_next(cs, &c) > 0 && shown < limit) {
		struct row r = { .call = c };

		if (c.dur_ns == -2 || c.entry_ns < wd->start || !on_window_cpu(wd, tr, &c))
			continue;
		if (c.entry_ns > wd->end)
			break;
		if (kft_export_func(x, &c, &r.func)) {
			kft_calls_close(cs);
			return kft_error_set(err, "out of memory");
		}
		if (have_prev) {
			put_row(out, x, sz, &prev, wd->start, c.entry_ns);
			shown++;
		}
		prev = r;
		have_prev = true;
	}
	kft_calls_close(cs);
	if (have_prev && shown < limit)
		put_row(out, x, sz, &prev, wd->start, wd->end);
	return ferror(out) ? kft_error_set(err, "write error") : 0;
}

int kft_view_latency(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		     const char *func, size_t limit, struct kft_error *err)
{
	struct kft_export_opts o = { 0 };
	struct window wd = { .tracer = "kft", .cpu = "-", .only_cpu = -1 };
	int64_t cpu;
	struct export_ctx x;
	struct worst w = { 0 };
	char what[300];
	int ret = -1;

	if (kft_export_begin(&x, tr, sz, &o, err) || find_worst(&x, tr, func, &w, err))
		goto out;
	if (!w.found) {
		kft_error_set(err, "no finished call of '%s' in the trace", func);
		goto out;
	}
	wd.start = w.call.entry_ns;
	wd.end = wd.start + (uint64_t)w.call.dur_ns;
	wd.pid = w.call.pid;
	wd.tid = w.call.tid;
	if ((cpu = kft_switches_cpu_at(&tr->switches, wd.tid, wd.start)) >= 0)
		snprintf(wd.cpu, sizeof(wd.cpu), "%" PRIu32, (uint32_t)cpu);
	snprintf(what, sizeof(what), "kft latency trace: the longest call of %s", func);
	wd.what = what;
	snprintf(wd.started, sizeof(wd.started), "%s", func);
	snprintf(wd.ended, sizeof(wd.ended), "%s", func);
	ret = print_window(out, &x, tr, sz, &wd, limit, err);
out:
	kft_export_end(&x);
	return ret;
}

/* The span thread tid was off the CPU in at `at`: its switch back in. */
static const struct kft_offcpu *span_at(const struct kft_switches *sw, uint32_t tid, uint64_t at)
{
	size_t n, lo = 0, hi;
	const struct kft_offcpu *s = kft_switches_of(sw, tid, &n);

	hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s[mid].to_ns < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return s && lo < n && s[lo].from_ns <= at ? &s[lo] : NULL;
}

int kft_view_wakeup_latency(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			    size_t limit, struct kft_error *err)
{
	const struct kft_switches *sw = &tr->switches;
	const struct kft_wakeup *worst = NULL;
	const struct kft_offcpu *worst_span = NULL;
	struct kft_export_opts o = { 0 };
	struct window wd = { .tracer = "wakeup",
			     .what = "kft wakeup latency trace: from a task's wakeup to its running, "
				     "on its CPU" };
	struct export_ctx x;
	char waker[32];
	int ret;

	if (!sw->nwakeups)
		return kft_error_set(err, "%s has no wakeups (kft record --kernel records them, "
					  "unless --no-switches)", tr->dir);
	for (size_t i = 0; i < sw->nwakeups; i++) {
		const struct kft_wakeup *w = &sw->wakeups[i];
		const struct kft_offcpu *s = span_at(sw, w->tid, w->ns);

		if (s && (!worst || s->to_ns - w->ns > worst_span->to_ns - worst->ns)) {
			worst = w;
			worst_span = s;
		}
	}
	if (!worst)
		return kft_error_set(err, "no wakeup in %s was followed by its task's running",
				     tr->dir);
	if (kft_export_begin(&x, tr, sz, &o, err))
		return -1;
	wd.start = worst->ns;
	wd.end = worst_span->to_ns;
	wd.tid = worst->tid;
	for (size_t i = 0; i < tr->nthreads; i++)
		if (tr->threads[i].hdr.tid == worst->tid)
			wd.pid = tr->threads[i].hdr.pid;
	if (!wd.pid)
		wd.pid = worst->tid;
	snprintf(wd.cpu, sizeof(wd.cpu), "%" PRIu32, worst->cpu);
	wd.only_cpu = worst->cpu;	/* that CPU's calls, as the wakeup tracer's */
	kft_export_thread_name(tr, worst->waker, worst->waker, waker, sizeof(waker));
	snprintf(wd.started, sizeof(wd.started), "woken by %s-%" PRIu32 " (prio %d)", waker,
		 worst->waker, worst->prio);
	if (worst_span->from_tid != KFT_SWITCH_UNKNOWN_TID)
		snprintf(wd.ended, sizeof(wd.ended), "switched in, after %" PRIu32 ":%d:%c",
			 worst_span->from_tid, worst_span->from_prio, worst_span->from_state);
	else
		snprintf(wd.ended, sizeof(wd.ended), "switched in");
	ret = print_window(out, &x, tr, sz, &wd, limit, err);
	kft_export_end(&x);
	return ret;
}
