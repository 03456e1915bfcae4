// SPDX-License-Identifier: GPL-2.0-only
/*
 * The function tracer's one-line layouts: the `trace` file, "comm-pid
 * [cpu] seconds: func <-parent" under iter_ctrl's options, and
 * latency_trace, with its flag columns, times from the first call and
 * delay marks. A program's CPU is where its context switches put it; a
 * thread with none recorded shows "[??]" (trace) or '.' (latency_trace).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "export-common.h"
#include "ftrace.h"
#include "latency-trace.h"
#include "put.h"

void kft_ftrace_opts_init(struct kft_ftrace_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->tracer = KFT_FTRACE_GRAPH;
	o->print_parent = true;
}

int kft_ftrace_opts_set(struct kft_ftrace_opts *o, const char *word)
{
	static const struct {
		const char *name;
		size_t off;
	} opts[] = {
		{ "print-parent", offsetof(struct kft_ftrace_opts, print_parent) },
		{ "sym-offset", offsetof(struct kft_ftrace_opts, sym_offset) },
		{ "sym-addr", offsetof(struct kft_ftrace_opts, sym_addr) },
		{ "raw", offsetof(struct kft_ftrace_opts, raw) },
		{ "hex", offsetof(struct kft_ftrace_opts, hex) },
		{ "verbose", offsetof(struct kft_ftrace_opts, verbose) },
	};
	bool on = strncmp(word, "no", 2) != 0;
	const char *name = on ? word : word + 2;

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (!strcmp(name, opts[i].name)) {
			*(bool *)((char *)o + opts[i].off) = on;
			return 0;
		}
	return -1;
}

/* The task name of the thread being printed, looked up once a thread. */
struct task {
	uint32_t tid, pid, session;
	bool set;
	char comm[32];
};

static const char *task_comm(struct task *t, const struct kft_trace *tr, const struct kft_call *c)
{
	if (!t->set || t->tid != c->tid || t->pid != c->pid || t->session != c->session) {
		kft_export_thread_name(tr, c->pid, c->tid, t->comm, sizeof(t->comm));
		t->tid = c->tid;
		t->pid = c->pid;
		t->session = c->session;
		t->set = true;
	}
	return t->comm;
}

/* "            comm-TID   [cc] SSSSS.UUUUUU: " (cpu -1: not known) */
static char *function_start(char *p, const char *comm, uint32_t tid, int64_t cpu, uint64_t ns)
{
	size_t n = strlen(comm);

	p = kft_put_blanks(p, n < 16 ? (int)(16 - n) : 0);
	p = kft_put_str(p, comm, 0);
	*p++ = '-';
	{
		char digits[16], *d = kft_put_int(digits, tid, 0);

		*d = '\0';
		p = kft_put_str(p, digits, 5);
	}
	p = kft_put_str(p, " [", 0);
	if (cpu < 0) {
		p = kft_put_str(p, "??", 0);
	} else {
		if (cpu < 10)
			*p++ = '0';
		p = kft_put_int(p, cpu, 0);
	}
	p = kft_put_str(p, "] ", 0);
	p = kft_put_int(p, (int64_t)(ns / 1000000000), 5);
	*p++ = '.';
	p = kft_put_zero_padded(p, ns / 1000 % 1000000, 6);
	*p++ = ':';
	*p++ = ' ';
	return p;
}

/* "TID:PRIO:STATE", as the sched_switch tracer wrote a task, '?' for
 * what is not known. */
static char *put_task(char *p, uint32_t tid, int16_t prio, char state)
{
	if (tid == KFT_SWITCH_UNKNOWN_TID)
		*p++ = '?';
	else
		p = kft_put_int(p, tid, 0);
	*p++ = ':';
	if (prio >= 0)
		p = kft_put_int(p, prio, 0);
	else
		*p++ = '?';
	*p++ = ':';
	*p++ = state;
	return p;
}

/* The state thread's spans say it was in at ns: asleep ('S', 'D') or
 * preempted ('R') inside one, running ('R') outside; '?' without spans. */
static char state_at(const struct offcpu_cursor *oc, uint64_t ns)
{
	for (size_t k = oc->next / 2; k < oc->n && oc->spans[k].from_ns <= ns; k++)
		if (ns <= oc->spans[k].to_ns)
			return oc->spans[k].state;
	return oc->n ? 'R' : '?';
}

/* function: the thread's switches out and back in and its wakeups before
 * `before`, in the sched_switch tracer's layout: the task that leaves the
 * CPU "==>" the one that takes it, the waker "+" the task woken, each
 * "TID:PRIO:STATE". A program's own switch records know neither the other
 * task nor the priorities: those show as '?'. */
static void put_switch_lines(FILE *out, struct offcpu_cursor *oc, const char *comm,
			     uint64_t before)
{
	for (;;) {
		/* switch event 2k: span k's start, 2k + 1: its end */
		const struct kft_offcpu *s = oc->next < 2 * oc->n ? &oc->spans[oc->next / 2] : NULL;
		const struct kft_wakeup *w = oc->next_wake < oc->nwakes ? &oc->wakes[oc->next_wake]
									: NULL;
		bool in = oc->next % 2;
		uint64_t at = s ? (in ? s->to_ns : s->from_ns) : UINT64_MAX;
		char line[192], *p;

		if (w && w->ns <= at)
			at = w->ns;
		else
			w = NULL;
		if (at >= before || at == UINT64_MAX)
			break;
		if (w) {
			/* the waker runs; the woken task's state is its
			 * span's, read before the cursor moves past it */
			p = function_start(line, comm, oc->tid, w->cpu, at);
			p = put_task(p, w->waker, w->waker_prio, 'R');
			p = kft_put_str(p, " + ", 0);
			p = put_task(p, oc->tid, w->prio, state_at(oc, at));
			oc->next_wake++;
		} else if (in) {
			p = function_start(line, comm, oc->tid, s->cpu_in, at);
			p = put_task(p, s->from_tid, s->from_prio, s->from_state);
			p = kft_put_str(p, " ==> ", 0);
			p = put_task(p, oc->tid, s->prio, 'R');
			oc->next++;
		} else {
			p = function_start(line, comm, oc->tid, s->cpu_out, at);
			p = put_task(p, oc->tid, s->prio, s->state);
			p = kft_put_str(p, " ==> ", 0);
			p = put_task(p, s->to_tid, s->to_prio, 'R');
			oc->next++;
		}
		*p++ = '\n';
		fwrite(line, 1, (size_t)(p - line), out);
	}
}

/* A function's name (or a call site's: ret) as the options ask: "name",
 * "name+0x1c", "name <55d0c0a01149>". */
static char *put_sym(char *p, struct kft_symbolizer *sz, uint64_t image, uint64_t addr, bool ret,
		     const struct kft_ftrace_opts *o)
{
	char name[NAME_MAX_LEN];
	struct kft_symbol sym = { 0 };

	(ret ? kft_caller_text : kft_symbol_text)(sz, image, addr, false, name, sizeof(name));
	p = kft_put_str(p, name, 0);
	if (o->sym_offset && sz &&
	    (ret ? kft_symbolize_return : kft_symbolize)(sz, image, addr, &sym) && sym.name)
		p += sprintf(p, "+0x%" PRIx64, sym.offset);
	if (o->sym_addr)
		p += sprintf(p, " <%" PRIx64 ">", addr);
	return p;
}

void kft_ftrace_function_header(FILE *out, const struct kft_ftrace_opts *o)
{
	fprintf(out, "# tracer: function\n#\n");
	if (o->raw || o->hex)
		fprintf(out, "# TID CPU TIMESTAMP-NS FUNCTION-ADDRESS CALLER-ADDRESS%s\n",
			o->hex ? " (hex)" : "");
	else
		fprintf(out, "#           TASK-PID   CPU#    TIMESTAMP  FUNCTION\n"
			     "#              | |      |          |         |\n");
}

/* One call's line, its thread named comm. */
static void put_function_row(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			     const struct kft_call *c, const char *comm,
			     const struct kft_ftrace_opts *o)
{
	char line[4 * NAME_MAX_LEN + 128], *p = line;
	uint64_t image = kft_symbolizer_image(sz, c->map_session, c->entry_ns);
	int64_t cpu = kft_switches_cpu_at(&tr->switches, c->tid, c->entry_ns);

	if (o->hex) {
		fprintf(out, "%08" PRIx32 " %08" PRIx32 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64
			"\n", c->tid, (uint32_t)cpu, c->entry_ns, c->func, c->call_site);
		return;
	}
	if (o->raw) {
		fprintf(out, "%" PRIu32 " %" PRId64 " %" PRIu64 " %" PRIx64 " %" PRIx64 "\n", c->tid,
			cpu, c->entry_ns, c->func, c->call_site);
		return;
	}
	p = function_start(p, comm, c->tid, cpu, c->entry_ns);
	p = put_sym(p, sz, image, c->func, false, o);
	if (o->print_parent) {
		p = kft_put_str(p, " <-", 0);
		p = put_sym(p, sz, image, c->call_site, true, o);
	}
	*p++ = '\n';
	fwrite(line, 1, (size_t)(p - line), out);
}

void kft_ftrace_function_row(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			     const struct kft_call *c, const struct kft_ftrace_opts *o)
{
	struct task task = { 0 };

	put_function_row(out, tr, sz, c, task_comm(&task, tr, c), o);
}

/* A marker as trace_marker's line. */
static void put_mark_line(FILE *out, const struct kft_trace *tr, const struct kft_mark *m,
			  const char *comm)
{
	char line[KFT_MARK_TEXT + 128], *p;

	p = function_start(line, comm, m->tid, kft_switches_cpu_at(&tr->switches, m->tid, m->ns),
			   m->ns);
	p = kft_put_str(p, "/* ", 0);
	p = kft_view_mark_text(p, m);
	p = kft_put_str(p, " */\n", 0);
	fwrite(line, 1, (size_t)(p - line), out);
}

void kft_ftrace_function_mark(FILE *out, const struct kft_trace *tr, const struct kft_mark *m)
{
	struct kft_call c = { .tid = m->tid, .pid = m->pid, .session = m->session };
	struct task task = { 0 };

	put_mark_line(out, tr, m, task_comm(&task, tr, &c));
}

/* The thread's markers made before `before`, as trace_marker's lines. */
static void put_mark_lines(FILE *out, const struct kft_trace *tr, struct mark_cursor *mc,
			   const char *comm, uint64_t before)
{
	const struct kft_mark *m;

	while ((m = mark_before(mc, before)))
		put_mark_line(out, tr, m, comm);
}

int kft_ftrace_print_function(FILE *out, struct by_thread *bt, struct kft_symbolizer *sz,
			      const struct kft_ftrace_opts *o)
{
	struct offcpu_cursor oc = { 0 };
	struct mark_cursor mc = { 0 };
	struct task task = { 0 };
	struct kft_call c;
	const char *comm = "";

	kft_ftrace_function_header(out, o);
	while (kft_ftrace_next_call(bt, &c)) {
		if (c.dur_ns == -2)
			continue;
		if (oc.set && (oc.tid != c.tid || oc.session != c.session)) {
			put_switch_lines(out, &oc, comm, UINT64_MAX);
			if (!o->raw && !o->hex)
				put_mark_lines(out, bt->tr, &mc, comm, UINT64_MAX);
		}
		comm = task_comm(&task, bt->tr, &c);
		offcpu_follow(&oc, bt->tr, bt->switches, &c);
		mark_follow(&mc, bt->tr, &c);
		put_switch_lines(out, &oc, comm, c.entry_ns);
		if (!o->raw && !o->hex)
			put_mark_lines(out, bt->tr, &mc, comm, c.entry_ns);
		put_function_row(out, bt->tr, sz, &c, comm, o);
	}
	put_switch_lines(out, &oc, comm, UINT64_MAX);
	if (!o->raw && !o->hex)
		put_mark_lines(out, bt->tr, &mc, comm, UINT64_MAX);
	return bt->failed ? -1 : 0;
}

/* latency_trace: one call, its delay mark told by the line after it. */
struct lat_row {
	struct kft_call call;
	int64_t cpu;
	char who[48];
};

static void put_lat_row(FILE *out, struct kft_symbolizer *sz, const struct lat_row *r,
			uint64_t start, uint64_t next, uint64_t index,
			const struct kft_ftrace_opts *o)
{
	const struct kft_call *c = &r->call;
	uint64_t image = kft_symbolizer_image(sz, c->map_session, c->entry_ns);
	char name[4 * NAME_MAX_LEN], caller[4 * NAME_MAX_LEN];
	struct kft_lat_row row = { .comm = r->who, .pid = c->tid, .cpu = r->cpu,
				   .handler = c->flags & KFT_REC_SIGNAL, .entry_ns = c->entry_ns,
				   .rel_ns = c->entry_ns - start, .delay_ns = next - c->entry_ns,
				   .index = index, .func = name, .caller = caller };

	*put_sym(name, sz, image, c->func, false, o) = '\0';
	*put_sym(caller, sz, image, c->call_site, true, o) = '\0';
	if (o->verbose)
		kft_lat_row_verbose(out, &row);
	else
		kft_lat_row(out, &row);
}

int kft_ftrace_print_latency(FILE *out, struct by_thread *bt, struct kft_symbolizer *sz,
			     const struct kft_ftrace_opts *o)
{
	const struct kft_trace *tr = bt->tr;
	struct task task = { 0 };
	struct lat_row prev;
	struct kft_call c;
	uint64_t start = UINT64_MAX, end = 0, n = 0;
	bool have_prev = false;

	/* the header's span and count: a first pass over the calls */
	while (kft_ftrace_next_call(bt, &c)) {
		if (c.dur_ns == -2)
			continue;
		start = c.entry_ns < start ? c.entry_ns : start;
		end = c.entry_ns > end ? c.entry_ns : end;
		n++;
	}
	if (bt->failed)
		return -1;
	kft_calls_close(bt->cs);
	bt->cs = NULL;
	bt->g = 0;
	if (!n)
		start = end = 0;
	kft_lat_head(out, &(struct kft_lat_head){ .tracer = "function",
						   .title = "function latency trace (kft)",
						   .latency_us = (end - start) / 1000,
						   .shown = n, .total = n, .cpu = "-",
						   .verbose = o->verbose });
	for (uint64_t index = 0; kft_ftrace_next_call(bt, &c);) {
		struct lat_row r = { .call = c };

		if (c.dur_ns == -2)
			continue;
		snprintf(r.who, sizeof(r.who), "%s", task_comm(&task, tr, &c));
		r.cpu = kft_switches_cpu_at(&tr->switches, c.tid, c.entry_ns);
		if (have_prev)
			put_lat_row(out, sz, &prev, start, c.entry_ns, index++, o);
		prev = r;
		have_prev = true;
	}
	if (have_prev)
		put_lat_row(out, sz, &prev, start, prev.call.entry_ns, n - 1, o);
	return bt->failed ? -1 : 0;
}
