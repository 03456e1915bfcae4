// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "../format/thread-writer.h"
#include "ftrace-collect.h"
#include "irq-events.h"
#include "kprobe-args.h"
#include "sched-events.h"
#include "pairing.h"
#include "journal.h"

struct fields {
	int entry_id, exit_id, function_id;
	struct tep_format_field *entry_func, *entry_depth;
	struct tep_format_field *exit_func, *exit_depth, *calltime, *rettime;
	struct tep_format_field *ip, *parent_ip;
};

struct gather {
	struct tep_handle *tep;
	struct fields f;
	struct kft_irq_state irq;	/* with --irqs */
	struct kft_sched_state sched;	/* context switches */
	struct kft_kargs kargs;		/* the args statement's values */
	uint64_t base;			/* the trace's clock base */
	struct kft_kev *ev;
	size_t n, cap;
	bool oom;
};

static uint64_t field(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f)
		tep_read_number_field(f, rec->data, &v);
	return v;
}

/* Room for one more event. */
static struct kft_kev *new_event(struct gather *g)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 4096;
		struct kft_kev *bigger = realloc(g->ev, cap * sizeof(*bigger));

		if (!bigger) {
			g->oom = true;
			return NULL;
		}
		g->ev = bigger;
		g->cap = cap;
	}
	memset(&g->ev[g->n], 0, sizeof(g->ev[g->n]));
	return &g->ev[g->n];
}

static int on_event(struct tep_event *event, struct tep_record *rec, int cpu, void *arg)
{
	struct gather *g = arg;
	struct kft_kev *e, irq;
	int flags;

	if (event->id != g->f.entry_id && event->id != g->f.exit_id &&
	    event->id != g->f.function_id) {
		struct kft_kev args = { 0 };

		if (kft_kargs_event(&g->kargs, event, rec, &args)) {
			if (g->kargs.oom || !(e = new_event(g))) {
				g->oom = true;
				return 1;
			}
			args.ts = rec->ts;
			args.seq = (uint32_t)g->n++;
			args.pid = tep_data_pid(g->tep, rec);
			*e = args;
			return 0;
		}
		if (kft_sched_event(&g->sched, event, rec, cpu, g->base)) {
			g->oom = g->sched.oom;
			return g->oom;
		}
		memset(&irq, 0, sizeof(irq));
		if (!kft_irq_event(&g->irq, event, rec, cpu, &irq)) {
			if (!g->irq.oom)
				return 0;
			g->oom = true;
			return 1;
		}
		if (!(e = new_event(g)))
			return 1;
		*e = irq;
		e->seq = (uint32_t)g->n++;
		return 0;
	}
	if (!(e = new_event(g)))
		return 1;
	e->ts = rec->ts;
	e->seq = (uint32_t)g->n++;
	e->pid = tep_data_pid(g->tep, rec);
	flags = tep_data_flags(g->tep, rec);
	e->irq = flags > 0 && (flags & (TRACE_FLAG_HARDIRQ | TRACE_FLAG_SOFTIRQ));
	if (event->id == g->f.entry_id) {
		e->type = KFT_KEV_ENTRY;
		e->func = field(g->f.entry_func, rec);
		e->depth = (int32_t)field(g->f.entry_depth, rec);
	} else if (event->id == g->f.exit_id) {
		uint64_t t0 = field(g->f.calltime, rec), t1 = field(g->f.rettime, rec);

		e->type = KFT_KEV_EXIT;
		e->func = field(g->f.exit_func, rec);
		e->depth = (int32_t)field(g->f.exit_depth, rec);
		e->extra = t1 > t0 ? t1 - t0 : 0;
	} else {
		e->type = KFT_KEV_FUNCTION;
		e->func = field(g->f.ip, rec);
		e->extra = field(g->f.parent_ip, rec);
	}
	(void)cpu;
	return 0;
}

static int find_fields(struct tep_handle *tep, struct fields *f, struct kft_error *err)
{
	struct tep_event *entry = tep_find_event_by_name(tep, "ftrace", "funcgraph_entry");
	struct tep_event *exit_ = tep_find_event_by_name(tep, "ftrace", "funcgraph_exit");
	struct tep_event *fn = tep_find_event_by_name(tep, "ftrace", "function");

	if (!fn && !exit_)
		return kft_error_set(err, "tracefs describes no function events (ftrace/function)");
	f->entry_id = entry ? entry->id : -1;
	f->exit_id = exit_ ? exit_->id : -1;
	f->function_id = fn ? fn->id : -1;
	if (entry) {
		f->entry_func = tep_find_field(entry, "func");
		f->entry_depth = tep_find_field(entry, "depth");
	}
	if (exit_) {
		f->exit_func = tep_find_field(exit_, "func");
		f->exit_depth = tep_find_field(exit_, "depth");
		f->calltime = tep_find_field(exit_, "calltime");
		f->rettime = tep_find_field(exit_, "rettime");
		if (!f->exit_func || !f->calltime || !f->rettime)
			return kft_error_set(err, "ftrace/funcgraph_exit has an unknown layout");
	}
	if (fn) {
		f->ip = tep_find_field(fn, "ip");
		f->parent_ip = tep_find_field(fn, "parent_ip");
	}
	return 0;
}

static int cmp_kev(const void *a, const void *b)
{
	const struct kft_kev *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* pid -> thread group, from saved_tgids ("pid tgid" lines). */
struct tgids {
	uint32_t (*pairs)[2];
	size_t n;
};

static int cmp_pair(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

static void load_tgids(const char *tracing, struct tgids *t)
{
	char path[512];
	struct kft_error err;
	char *text;
	size_t cap = 0;

	snprintf(path, sizeof(path), "%s/saved_tgids", tracing);
	text = kft_file_read(path, &err);
	for (char *p = text; p && *p;) {
		unsigned int pid, tgid;

		if (sscanf(p, "%u %u", &pid, &tgid) == 2) {
			if (t->n == cap) {
				void *bigger = realloc(t->pairs, (cap = cap ? 2 * cap : 256) *
								     sizeof(*t->pairs));
				if (!bigger)
					break;
				t->pairs = bigger;
			}
			t->pairs[t->n][0] = pid;
			t->pairs[t->n++][1] = tgid;
		}
		p = strchrnul(p, '\n');
		if (*p)
			p++;
	}
	free(text);
	if (t->n)
		qsort(t->pairs, t->n, sizeof(*t->pairs), cmp_pair);
}

static uint32_t tgid_of(const struct tgids *t, uint32_t pid);

static uint32_t tgid_cb(const void *ctx, uint32_t pid)
{
	return tgid_of(ctx, pid);
}

static uint32_t tgid_of(const struct tgids *t, uint32_t pid)
{
	uint32_t key[2] = { pid, 0 };
	const uint32_t *hit = t->n ? bsearch(key, t->pairs, t->n, sizeof(*t->pairs), cmp_pair) : NULL;

	return hit && hit[1] ? hit[1] : pid;
}

uint64_t kft_kernel_cpu_stat(const char *tracing, const char *const *fields)
{
	char path[512];
	uint64_t sum = 0;
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "%s/per_cpu", tracing);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		struct kft_error err;
		char *text;

		if (strncmp(de->d_name, "cpu", 3))
			continue;
		snprintf(path, sizeof(path), "%s/per_cpu/%s/stats", tracing, de->d_name);
		text = kft_file_read(path, &err);
		for (size_t i = 0; text && fields[i]; i++) {
			const char *p = strstr(text, fields[i]);

			if (p)
				sum += strtoull(p + strlen(fields[i]), NULL, 10);
		}
		free(text);
	}
	if (d)
		closedir(d);
	return sum;
}

/* The kernel's function symbols, for reading the trace anywhere. */
static int save_kallsyms(const char *dir, const struct kft_irq_state *irq, struct kft_error *err)
{
	char path[4096], *line = NULL;
	size_t cap = 0;
	FILE *in = fopen("/proc/kallsyms", "re"), *out;
	int ret = 0, fd;

	if (!in)
		return kft_error_set(err, "/proc/kallsyms: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	/* never through a link planted in the trace directory */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	out = fd < 0 ? NULL : fdopen(fd, "w");
	if (!out) {
		if (fd >= 0)
			close(fd);
		fclose(in);
		return kft_error_set(err, "%s: %s", path, strerror(errno));
	}
	while (getline(&line, &cap, in) > 0) {
		char type;

		if (sscanf(line, "%*x %c", &type) == 1 && (type == 't' || type == 'T'))
			fputs(line, out);
	}
	kft_irq_put_names(irq, out);
	free(line);
	fclose(in);
	if (fclose(out))
		ret = kft_error_set(err, "%s: write failed", path);
	return ret;
}

static uint64_t stack_max(const char *tracing)
{
	char path[512];
	struct kft_error err;
	char *text;
	uint64_t v;

	snprintf(path, sizeof(path), "%s/stack_max_size", tracing);
	text = kft_file_read(path, &err);
	v = text ? strtoull(text, NULL, 10) : 0;
	free(text);
	return v;
}

static int cmp_args(const void *a, const void *b)
{
	const struct kft_kev_args *x = a, *y = b;

	return x->entry_ns < y->entry_ns ? -1 : x->entry_ns > y->entry_ns;
}

/* A task's saved values as its .args file, in its calls' entry order. */
static int write_args(const char *dir, uint32_t session, uint32_t tid, struct kft_task_out *t,
		      const struct kft_kargs *a, struct kft_error *err)
{
	struct kft_args_call *calls;
	int ret;

	if (!t->nargs)
		return 0;
	if (!(calls = calloc(t->nargs, sizeof(*calls))))
		return kft_error_set(err, "out of memory");
	qsort(t->args, t->nargs, sizeof(*t->args), cmp_args);
	for (size_t i = 0; i < t->nargs; i++) {
		const struct kft_kev_args *k = &t->args[i];
		uint64_t sp = 0, none;

		calls[i].entry_ns = k->entry_ns;
		calls[i].func = k->func;
		if (k->args != KFT_KEV_NONE)
			calls[i].args = kft_kargs_values(a, k->args, &sp);
		if (k->ret != KFT_KEV_NONE)
			calls[i].ret = kft_kargs_values(a, k->ret, &none);
		calls[i].sp = sp;
	}
	ret = kft_args_write(dir, session, tid, calls, t->nargs, err);
	free(calls);
	return ret;
}

static int write_tasks(const char *tracing, const char *dir, const struct kft_config *cfg,
		       uint64_t base, uint32_t session, struct gather *g, const struct tgids *tgp,
		       struct kft_kernel_result *res, struct kft_error *err)
{
	const struct tgids tg = *tgp;
	struct kft_task_out *t = calloc(1, sizeof(*t));
	struct kft_counters global = { 0 };
	int ret = 0;

	if (!t)
		return kft_error_set(err, "out of memory");
	global.overwritten = res->lost;
	if (cfg->watch != KFT_WATCH_NONE) {
		res->max_stack = stack_max(tracing);
		global.watch_hits = res->max_stack >= cfg->watch_bytes;
	}
	qsort(g->ev, g->n, sizeof(*g->ev), cmp_kev);
	for (size_t i = 0, j; i < g->n && !ret; i = j) {
		struct kft_thread_out out = { 0 };
		char irq_comm[32];
		const char *comm;

		for (j = i; j < g->n && g->ev[j].pid == g->ev[i].pid; j++)
			;
		t->n = 0;
		memset(&t->c, 0, sizeof(t->c));
		if (kft_kernel_pair(g->ev + i, j - i, cfg, base, t)) {
			ret = kft_error_set(err, "out of memory");
			break;
		}
		kft_kernel_cut(t, cfg);
		if (!t->n && !t->top)
			continue;
		comm = tep_data_comm_from_pid(g->tep, g->ev[i].pid);
		out.session = session;
		out.tid = (uint32_t)g->ev[i].pid;
		out.pid = tgid_of(&tg, out.tid);
		out.comm = g->ev[i].pid == 0 ? "<idle>" : comm;
		if (g->ev[i].pid >= KFT_IRQ_TASK_BASE) {
			snprintf(irq_comm, sizeof(irq_comm), "irq/cpu%d",
				 g->ev[i].pid - KFT_IRQ_TASK_BASE);
			out.comm = irq_comm;
			out.pid = out.tid;
		}
		out.recs = t->recs;
		out.nrecs = t->n;
		out.frames = t->frames;
		out.nframes = t->top;
		out.counters = t->c;
		if (!res->tasks) {	/* the run's own counters go with the first task */
			out.counters.overwritten += global.overwritten;
			out.counters.watch_hits = global.watch_hits;
			out.max_stack = res->max_stack;
		}
		for (size_t k = 0; k < t->n; k++)
			if (t->recs[k].entry_ns < res->first_ns)
				res->first_ns = t->recs[k].entry_ns;
		res->calls += t->n + t->top;
		ret = kft_thread_write(dir, &out, err);
		if (!ret)
			ret = write_args(dir, session, out.tid, t, &g->kargs, err);
		res->tasks++;
	}
	if (!ret && !res->tasks && (global.overwritten || global.watch_hits)) {
		struct kft_thread_out out = { .session = session, .comm = "<kernel>",
					      .counters = global, .max_stack = res->max_stack };

		ret = kft_thread_write(dir, &out, err);
	}
	free(t->recs);
	free(t->args);
	free(t);
	return ret;
}

int kft_kernel_collect(const char *tracing, const char *dir, const struct kft_config *cfg,
		       uint64_t clock_base_ns, uint32_t session, struct kft_kernel_result *res,
		       struct kft_error *err)
{
	static const char *const systems[] = { "ftrace", "irq", "irq_vectors", "sched", "kft",
						NULL };
	struct gather g = { .base = clock_base_ns };
	struct tgids tg = { 0 };
	int ret;

	memset(res, 0, sizeof(*res));
	res->first_ns = UINT64_MAX;
	g.tep = tracefs_local_events_system(tracing, systems);
	if (!g.tep)
		return kft_error_set(err, "%s: cannot read the event formats", tracing);
	tracefs_load_cmdlines(tracing, g.tep);
	ret = find_fields(g.tep, &g.f, err);
	if (!ret && kft_kargs_init(&g.kargs, g.tep, cfg))
		ret = kft_error_set(err, "out of memory");
	kft_irq_init(&g.irq, g.tep);
	kft_sched_init(&g.sched, g.tep);
	if (!ret && tracefs_iterate_raw_events(g.tep, NULL, NULL, 0, on_event, &g) < 0)
		ret = kft_error_set(err, "%s: cannot read the ring buffer", tracing);
	if (!ret && g.oom)
		ret = kft_error_set(err, "out of memory for %zu kernel events", g.n);
	res->events = g.n;
	res->lost = kft_kernel_cpu_stat(tracing,
					(const char *const[]){ "overrun:", "dropped events:", NULL });
	load_tgids(tracing, &tg);
	if (!ret)
		ret = write_tasks(tracing, dir, cfg, clock_base_ns, session, &g, &tg, res, err);
	if (!ret)
		ret = kft_sched_write(&g.sched, dir, clock_base_ns, tgid_cb, &tg, err);
	if (!ret)
		ret = save_kallsyms(dir, &g.irq, err);
	kft_irq_free(&g.irq);
	kft_sched_free(&g.sched);
	kft_kargs_free(&g.kargs);
	free(tg.pairs);
	free(g.ev);
	tep_free(g.tep);
	return ret;
}
