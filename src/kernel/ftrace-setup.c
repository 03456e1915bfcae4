// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fnmatch.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "../symbols/symmap.h"
#include "boot-args.h"
#include "ftrace-setup.h"
#include "kprobe-args.h"

#define STACK_TRACER_FILE "/proc/sys/kernel/stack_tracer_enabled"
/* ring buffer bytes per recorded call: an entry and an exit event */

const char *kft_kernel_path(const struct kft_kernel *k, const char *name)
{
	static char path[1024];

	snprintf(path, sizeof(path), "%s/%s", k->dir, name);
	return path;
}

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || !p[n]))
			return true;
	return false;
}

static bool tracefs_mounted(void)
{
	FILE *f = fopen("/proc/mounts", "re");
	char line[1024];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, " tracefs ") != NULL;
	if (f)
		fclose(f);
	return found;
}

static int probe(struct kft_kernel *k, struct kft_error *err);

int kft_kernel_probe(struct kft_kernel *k, struct kft_error *err)
{
	int ret = probe(k, err);

	if (ret)
		kft_kernel_release(k);	/* unmounts what it mounted */
	return ret;
}

static int probe(struct kft_kernel *k, struct kft_error *err)
{
	const char *dir;
	char *tracers;

	memset(k, 0, sizeof(*k));
	if (geteuid() != 0)
		return kft_error_set(err, "kernel tracing needs root (tracefs and /proc/kallsyms "
				     "are root's)");
	tracefs_set_loglevel(TEP_LOG_NONE);
	/* libtracefs mounts tracefs where it is not: kft unmounts it after */
	k->mounted = !tracefs_mounted();
	dir = tracefs_tracing_dir();
	if (k->mounted && (!dir || tracefs_mounted() == false))
		k->mounted = false;
	if (!dir)
		return kft_error_set(err, "no tracefs: mount it (mount -t tracefs nodev "
				     "/sys/kernel/tracing) or build the kernel with CONFIG_FTRACE");
	snprintf(k->dir, sizeof(k->dir), "%s", dir);
	tracers = kft_file_read(kft_kernel_path(k, "available_tracers"), err);
	if (!tracers)
		return -1;
	/* KFT_KERNEL_TRACER=function: as on kernels without function_graph */
	k->graph = has_word(tracers, "function_graph") &&
		   !(getenv("KFT_KERNEL_TRACER") && !strcmp(getenv("KFT_KERNEL_TRACER"), "function"));
	k->function = has_word(tracers, "function");
	free(tracers);
	if (!k->function)
		return kft_error_set(err, "this kernel has no function tracer "
				     "(CONFIG_FUNCTION_TRACER is off): kft cannot trace it");
	k->stack_tracer = access(STACK_TRACER_FILE, W_OK) == 0;
	k->on_fd = open(kft_kernel_path(k, "tracing_on"), O_RDWR | O_CLOEXEC);
	if (k->on_fd < 0)
		return kft_error_set(err, "%s: %s", kft_kernel_path(k, "tracing_on"),
				     strerror(errno));
	return 0;
}

void kft_kernel_release(struct kft_kernel *k)
{
	kft_strmap_free(&k->traceable);
	if (k->on_fd > 0)
		close(k->on_fd);
	k->on_fd = -1;
	/* the settings live in the kernel, not in the mount */
	if (k->mounted)
		umount(k->dir);
	k->mounted = false;
}

static int load_traceable(struct kft_kernel *k, struct kft_error *err)
{
	char *text;

	if (k->traceable_loaded)
		return 0;
	text = kft_file_read(kft_kernel_path(k, "available_filter_functions"), err);
	if (!text)
		return -1;
	for (char *p = text; *p;) {
		char *end = strchrnul(p, '\n'), *sp = memchr(p, ' ', (size_t)(end - p));
		bool more = *end;

		*end = '\0';
		if (sp)
			*sp = '\0';	/* "name [module]" */
		if (*p && kft_strmap_put(&k->traceable, p, 1)) {
			free(text);
			return kft_error_set(err, "out of memory");
		}
		p = more ? end + 1 : end;
	}
	free(text);
	k->traceable_loaded = true;
	return 0;
}

static bool traceable(const struct kft_kernel *k, const char *name)
{
	uint32_t v;

	return kft_strmap_get(&k->traceable, name, &v);
}

/*
 * Names the kernel may trace in place of one it cannot: the system call
 * layers (__x64_sys_X is a wrapper ftrace often cannot hook, __do_sys_X
 * and ksys_X do the work), compiler clones, and functions renamed since
 * KFT's days.
 */
static void neighbours(const struct kft_kernel *k, const char *name, char *out, size_t size)
{
	static const char *const layers[] = {
		"__x64_sys_", "__ia32_sys_", "__se_sys_", "__do_sys_", "__sys_", "ksys_",
		"do_sys_", "sys_", "do_", "",
	};
	static const char *const suffixes[] = { "", ".part.0", ".isra.0", ".constprop.0" };
	static const struct {
		const char *old, *now;
	} renamed[] = {
		{ "do_fork", "kernel_clone" }, { "_do_fork", "kernel_clone" },
		{ "sys_fork", "__do_sys_fork" }, { "do_sys_open", "do_sys_openat2" },
		{ "sys_open", "do_sys_openat2" },
	};
	const char *stem = name;
	size_t n = 0;
	char cand[256];

	out[0] = '\0';
	for (size_t i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++)
		if (!strcmp(name, renamed[i].old) && traceable(k, renamed[i].now))
			n += (size_t)snprintf(out + n, size - n, " %s (%s's name today)",
					      renamed[i].now, name);
	for (size_t i = 0; i + 1 < sizeof(layers) / sizeof(layers[0]); i++)
		if (!strncmp(name, layers[i], strlen(layers[i]))) {
			stem = name + strlen(layers[i]);
			break;
		}
	for (size_t i = 0; i < sizeof(layers) / sizeof(layers[0]) && n < size - 64; i++)
		for (size_t s = 0; s < sizeof(suffixes) / sizeof(suffixes[0]); s++) {
			snprintf(cand, sizeof(cand), "%s%s%s", layers[i], stem, suffixes[s]);
			if (strcmp(cand, name) && traceable(k, cand) && !strstr(out, cand))
				n += (size_t)snprintf(out + n, size - n, " %s", cand);
		}
}

/* A config function as a traceable name; addresses go through kallsyms. */
static int check_ref(struct kft_kernel *k, struct kft_func_ref *ref, struct kft_symmap *ksyms,
		     const char *origin, struct kft_error *err)
{
	char near[300];

	if (!ref->name) {
		const struct kft_mapsym *s;

		if (!ksyms->syms && kft_symmap_load(ksyms, "/proc/kallsyms", err))
			return -1;
		s = kft_symmap_lookup(ksyms, ref->addr);
		if (!s || s->addr != ref->addr)
			return kft_error_set(err, "%s:%u: 0x%llx: no kernel function starts at this "
					     "address (see /proc/kallsyms; addresses change with "
					     "every boot when KASLR is on)", origin, ref->line,
					     (unsigned long long)ref->addr);
		ref->name = strdup(s->name);
		if (!ref->name)
			return kft_error_set(err, "out of memory");
	}
	if (traceable(k, ref->name))
		return 0;
	/* set_ftrace_filter takes globs itself: one must match something */
	if (strpbrk(ref->name, "*?[") && k->traceable.len) {
		for (size_t i = 0; i < k->traceable.cap; i++)
			if (k->traceable.keys[i] && !fnmatch(ref->name, k->traceable.keys[i], 0))
				return 0;
		return kft_error_set(err, "%s:%u: '%s': no function this kernel can trace "
				     "matches it", origin, ref->line, ref->name);
	}
	neighbours(k, ref->name, near, sizeof(near));
	return kft_error_set(err, "%s:%u: '%s': this kernel cannot trace that function (it is "
			     "not in available_filter_functions)%s%s", origin, ref->line, ref->name,
			     *near ? "; traceable neighbours:" : "", near);
}

int kft_kernel_check(struct kft_kernel *k, struct kft_config *cfg, const char *origin,
		     struct kft_error *err)
{
	struct kft_symmap ksyms = { 0 };
	int ret = load_traceable(k, err);

	if (!ret && (cfg->start.type == KFT_TRIGGER_ENTRY || cfg->start.type == KFT_TRIGGER_EXIT))
		ret = check_ref(k, &cfg->start.func, &ksyms, origin, err);
	if (!ret && (cfg->stop.type == KFT_TRIGGER_ENTRY || cfg->stop.type == KFT_TRIGGER_EXIT))
		ret = check_ref(k, &cfg->stop.func, &ksyms, origin, err);
	for (size_t i = 0; !ret && i < cfg->nfuncs; i++)
		ret = check_ref(k, &cfg->funcs[i], &ksyms, origin, err);
	for (size_t i = 0; !ret && i < cfg->skip_list.n; i++)
		ret = check_ref(k, &cfg->skip_list.refs[i], &ksyms, origin, err);
	for (size_t i = 0; !ret && i < cfg->graph.n; i++)
		ret = check_ref(k, &cfg->graph.refs[i], &ksyms, origin, err);
	if (!ret && cfg->watch != KFT_WATCH_NONE && !k->stack_tracer)
		ret = kft_error_set(err, "%s: watch: this kernel has no stack tracer "
				    "(CONFIG_STACK_TRACER), so kft cannot watch its stack", origin);
	/* the args statement: kprobe events (kprobe-args.c) */
	for (size_t i = 0; !ret && i < cfg->args.n; i++)
		ret = check_ref(k, &cfg->args.refs[i], &ksyms, origin, err);
	if (!ret)
		ret = kft_kargs_check(cfg, origin, err);
	if (!ret && (cfg->mintime || cfg->noints || cfg->graph.set || cfg->max_depth) && !k->graph)
		ret = kft_error_set(err, "%s: filter %s needs the function_graph tracer, which "
				    "this kernel lacks (only entries can be traced)", origin,
				    cfg->mintime ? "mintime" : cfg->noints ? "noints"
				    : cfg->graph.set ? "graph" : "depth");
	kft_symmap_free(&ksyms);
	return ret;
}

static int set(struct kft_kernel *k, struct kft_journal *j, const char *file, const char *value,
	       struct kft_error *err)
{
	return kft_journal_set(j, kft_kernel_path(k, file), value, err);
}

/*
 * Triggers fire for every task, kft too: once one is in, kft must not
 * call what it watches (opening a file calls do_sys_openat2). So every
 * file the triggers need is opened first, the probes of exit triggers
 * created, and only then are the triggers written, through the open
 * files, with tracing_on last.
 */
struct trigger_files {
	int filter;		/* set_ftrace_filter */
	int ev_trigger[2];	/* events/kft/kft_on|kft_off/trigger */
	int ev_enable[2];
};

static const char *const trigger_event[2] = { "kft_on", "kft_off" };

static int open_file(struct kft_kernel *k, const char *name, struct kft_error *err)
{
	int fd = open(kft_kernel_path(k, name), O_WRONLY | O_APPEND | O_CLOEXEC);

	if (fd < 0)
		kft_error_set(err, "%s: %s", kft_kernel_path(k, name), strerror(errno));
	return fd;
}

/* Exit triggers: a kretprobe event, created now, triggered later. */
static int prepare_trigger(struct kft_kernel *k, struct kft_journal *j, const struct kft_trigger *t,
			   int which, struct trigger_files *f, struct kft_error *err)
{
	char text[512], undo[512], file[512];

	if (t->type != KFT_TRIGGER_EXIT)
		return 0;
	snprintf(text, sizeof(text), "r:kft/%s %s", trigger_event[which], t->func.name);
	snprintf(undo, sizeof(undo), "-:kft/%s", trigger_event[which]);
	if (kft_journal_append(j, kft_kernel_path(k, "kprobe_events"), text, undo, err))
		return -1;
	snprintf(file, sizeof(file), "events/kft/%s/trigger", trigger_event[which]);
	f->ev_trigger[which] = open_file(k, file, err);
	snprintf(file, sizeof(file), "events/kft/%s/enable", trigger_event[which]);
	f->ev_enable[which] = open_file(k, file, err);
	return f->ev_trigger[which] < 0 || f->ev_enable[which] < 0 ? -1 : 0;
}

/* Without autorepeat each trigger fires once. */
static int install_trigger(struct kft_kernel *k, struct kft_journal *j, const struct kft_trigger *t,
			   int which, bool repeat, const struct trigger_files *f,
			   struct kft_error *err)
{
	const char *cmd = which ? "traceoff" : "traceon";
	char text[512], undo[512], rel[64];
	int fd;

	if (t->type == KFT_TRIGGER_ENTRY) {
		/* a word ends at white space: without it the next write joins it */
		snprintf(text, sizeof(text), "%s:%s%s\n", t->func.name, cmd, repeat ? "" : ":1");
		snprintf(undo, sizeof(undo), "!%s:%s%s", t->func.name, cmd, repeat ? "" : ":0");
		snprintf(rel, sizeof(rel), "set_ftrace_filter");
		fd = f->filter;
	} else if (t->type == KFT_TRIGGER_EXIT) {
		snprintf(text, sizeof(text), "%s%s\n", cmd, repeat ? "" : ":1");
		snprintf(undo, sizeof(undo), "!%s", cmd);
		snprintf(rel, sizeof(rel), "events/kft/%s/trigger", trigger_event[which]);
		fd = f->ev_trigger[which];
	} else {
		return 0;
	}
	if (kft_journal_note(j, kft_kernel_path(k, rel), undo, err))
		return -1;
	if (kft_fd_write(fd, text))
		return kft_error_set(err, "cannot write '%s' to %s: %s", text,
				     kft_kernel_path(k, rel), strerror(errno));
	if (t->type != KFT_TRIGGER_EXIT)
		return 0;
	/* the event is kft's own: disabling it is all there is to restore */
	snprintf(rel, sizeof(rel), "events/kft/%s/enable", trigger_event[which]);
	if (kft_journal_note(j, kft_kernel_path(k, rel), "0", err))
		return -1;
	if (kft_fd_write(f->ev_enable[which], "1"))
		return kft_error_set(err, "cannot enable %s: %s", kft_kernel_path(k, rel),
				     strerror(errno));
	return 0;
}

static int arm_triggers(struct kft_kernel *k, struct kft_journal *j, const struct kft_config *cfg,
			bool start_now, struct kft_error *err)
{
	struct trigger_files f = { -1, { -1, -1 }, { -1, -1 } };
	int ret;

	f.filter = open_file(k, "set_ftrace_filter", err);
	ret = f.filter < 0 || prepare_trigger(k, j, &cfg->start, 0, &f, err) ||
	      prepare_trigger(k, j, &cfg->stop, 1, &f, err) ||
	      install_trigger(k, j, &cfg->stop, 1, cfg->autorepeat, &f, err) ||
	      install_trigger(k, j, &cfg->start, 0, cfg->autorepeat, &f, err) ||
	      (start_now && kft_kernel_set_on(k, true, err)) ? -1 : 0;
	if (f.filter >= 0)
		close(f.filter);
	for (int i = 0; i < 2; i++) {
		if (f.ev_trigger[i] >= 0)
			close(f.ev_trigger[i]);
		if (f.ev_enable[i] >= 0)
			close(f.ev_enable[i]);
	}
	return ret;
}

/* A list as ftrace's filter files take it: a name or glob a line. */
static char *list_text(const struct kft_func_ref *refs, size_t n)
{
	size_t len = 1;
	char *s, *p;

	for (size_t i = 0; i < n; i++)
		len += strlen(refs[i].name) + 1;
	s = p = malloc(len);
	if (!s)
		return NULL;
	*p = '\0';
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s\n", refs[i].name);
	return s;
}

const char *kft_kernel_cpumask_text(const struct kft_config *cfg, char *buf, size_t size)
{
	int top = KFT_MAX_CPUS / 32 - 1;
	size_t n = 0;

	while (top > 0 && !((cfg->cpus[top / 2] >> (32 * (top % 2))) & 0xffffffffu))
		top--;
	for (int g = top; g >= 0; g--) {
		uint32_t bits = (uint32_t)(cfg->cpus[g / 2] >> (32 * (g % 2)));

		n += (size_t)snprintf(buf + n, size - n, g == top ? "%x" : ",%08x", bits);
	}
	return buf;
}

int kft_kernel_arm(struct kft_kernel *k, struct kft_journal *j, const struct kft_config *cfg,
		   pid_t pid, struct kft_error *err)
{
	char mask[KFT_CPUMASK_TEXT_MAX];
	char num[64];
	char *list;
	bool started = cfg->start.type == KFT_TRIGGER_NONE;

	/* quiet first: no tracer while the filters change */
	if (set(k, j, "tracing_on", "0", err) || set(k, j, "current_tracer", "nop", err) ||
	    set(k, j, "trace_clock", "mono", err))
		return -1;
	snprintf(num, sizeof(num), "%llu", kft_kernel_buffer_kb(cfg));
	if (set(k, j, "buffer_size_kb", num, err) ||
	    set(k, j, "options/overwrite", cfg->overwrite ? "1" : "0", err) ||
	    set(k, j, "options/record-tgid", "1", err) ||
	    (cfg->cpus_set &&
	     set(k, j, "tracing_cpumask", kft_kernel_cpumask_text(cfg, mask, sizeof(mask)), err)))
		return -1;
	if (k->graph) {
		char depth[16];
		int bad;

		snprintf(num, sizeof(num), "%llu", (unsigned long long)cfg->mintime);
		snprintf(depth, sizeof(depth), "%u", cfg->max_depth);
		list = list_text(cfg->graph.refs, cfg->graph.n);
		if (!list)
			return kft_error_set(err, "out of memory");
		bad = set(k, j, "options/funcgraph-irqs", cfg->noints ? "0" : "1", err) ||
		      set(k, j, "tracing_thresh", num, err) ||
		      set(k, j, "max_graph_depth", depth, err) ||
		      kft_journal_set_list(j, kft_kernel_path(k, "set_graph_function"), list, err);
		free(list);
		if (bad)
			return -1;
	}
	snprintf(num, sizeof(num), "%d", (int)pid);
	if (kft_journal_set_list(j, kft_kernel_path(k, "set_ftrace_pid"), pid > 0 ? num : "", err) ||
	    (pid > 0 && set(k, j, "options/function-fork", "1", err)))
		return -1;
	list = list_text(cfg->skip_list.refs, cfg->skip_list.n);
	if (!list)
		return kft_error_set(err, "out of memory");
	if (kft_journal_set_list(j, kft_kernel_path(k, "set_ftrace_notrace"), list, err)) {
		free(list);
		return -1;
	}
	free(list);
	list = list_text(cfg->funcs, cfg->nfuncs);
	if (!list)
		return kft_error_set(err, "out of memory");
	/* the stack tracer looks at the same functions (all, without a list) */
	if (kft_journal_set_list(j, kft_kernel_path(k, "set_ftrace_filter"), list, err) ||
	    (cfg->watch != KFT_WATCH_NONE &&
	     kft_journal_set_list(j, kft_kernel_path(k, "stack_trace_filter"), list, err))) {
		free(list);
		return -1;
	}
	free(list);
	/* the maximum first, so that restoring stops the stack tracer before
	 * it puts the old maximum back */
	if (cfg->watch != KFT_WATCH_NONE &&
	    (set(k, j, "stack_max_size", "0", err) ||
	     kft_journal_set(j, STACK_TRACER_FILE, "1", err)))
		return -1;
	/* interrupts and softirqs as events of their own (kft record --irqs) */
	if (cfg->irq_events &&
	    (set(k, j, "events/irq/irq_handler_entry/enable", "1", err) ||
	     set(k, j, "events/irq/irq_handler_exit/enable", "1", err) ||
	     set(k, j, "events/irq/softirq_entry/enable", "1", err) ||
	     set(k, j, "events/irq/softirq_exit/enable", "1", err)))
		return -1;
	if (cfg->switch_events && (set(k, j, "events/sched/sched_switch/enable", "1", err) ||
				   set(k, j, "events/sched/sched_wakeup/enable", "1", err)))
		return -1;
	/* x86's local APIC timer is no irq_handler event: its own, where they are */
	if (cfg->irq_events &&
	    !access(kft_kernel_path(k, "events/irq_vectors/local_timer_entry/enable"), W_OK) &&
	    (set(k, j, "events/irq_vectors/local_timer_entry/enable", "1", err) ||
	     set(k, j, "events/irq_vectors/local_timer_exit/enable", "1", err)))
		return -1;
	if (kft_kargs_arm(k, j, cfg, err))
		return -1;
	/* the tracer last, journaled again: restoring begins by turning it
	 * off, before filters and buffers change under it */
	if (kft_file_write(kft_kernel_path(k, "trace"), "", false, err) ||
	    set(k, j, "current_tracer", k->graph ? "function_graph" : "function", err))
		return -1;
	return arm_triggers(k, j, cfg, started, err);
}

/* tracing_on stays open: opening a file could fire a trigger on open */
int kft_kernel_set_on(const struct kft_kernel *k, bool on, struct kft_error *err)
{
	if (pwrite(k->on_fd, on ? "1" : "0", 1, 0) != 1)
		return kft_error_set(err, "%s: %s", kft_kernel_path(k, "tracing_on"),
				     strerror(errno));
	return 0;
}

bool kft_kernel_is_on(const struct kft_kernel *k)
{
	char c = '0';

	return pread(k->on_fd, &c, 1, 0) == 1 && c == '1';
}
