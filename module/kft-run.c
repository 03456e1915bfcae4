// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run: a config written to /proc/kft becomes one (kft-spec §1.4, with
 * kft's own parser), the commands prime, start and stop move it (§2.1),
 * and triggers move it from the hooks (§4.2). Unlike KFT, a config that
 * names a function the kernel cannot trace is refused, the first run is
 * 1, and prime on a complete run is an error.
 */
#include <linux/kprobes.h>
#include <linux/sched/clock.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "kft-module.h"

struct kft_run __rcu *kft_live;
DEFINE_MUTEX(kft_lock);
static u32 last_id;
static bool armed;

static int arm(void)
{
	int ret;

	if (armed)
		return 0;
	ret = register_ftrace_function(&kft_ops);
	if (ret)
		pr_err("kft: cannot attach to ftrace (%d)\n", ret);
	armed = !ret;
	return ret;
}

static void disarm(void)
{
	if (armed)
		unregister_ftrace_function(&kft_ops);
	armed = false;
}

void kft_run_fire_start(struct kft_run *run, u64 now, enum kft_trigger_type how)
{
	unsigned long st = READ_ONCE(run->state);

	if (st & (KFT_TRIGGERED | KFT_COMPLETE))
		return;
	WRITE_ONCE(run->start.mark_ns, now);
	if (cmpxchg(&run->state, st, st | KFT_TRIGGERED) != st)
		return;
	WRITE_ONCE(run->start.how, how);
	cmpxchg64(&run->first_start_ns, 0, now);
}

void kft_run_fire_stop(struct kft_run *run, u64 now, enum kft_trigger_type how)
{
	unsigned long st = READ_ONCE(run->state), want;
	bool again = run->autorepeat && how != KFT_TRIGGER_LOG_FULL && how != KFT_TRIGGER_USER;

	if ((st & KFT_COMPLETE) || (!(st & KFT_TRIGGERED) && how != KFT_TRIGGER_USER))
		return;
	/* autorepeat: primed again, waiting for the next start */
	want = again ? KFT_PRIMED : st | KFT_COMPLETE;
	if (cmpxchg(&run->state, st, want) != st)
		return;
	WRITE_ONCE(run->stop.mark_ns, now);
	WRITE_ONCE(run->stop.how, how);
	if (again)
		WRITE_ONCE(run->cycle, run->cycle + 1);
}

/* A trigger function's address, as written or its symbol's (kprobes
 * name it, and say whether ftrace can trace it: a trigger on a function
 * ftrace never calls us for would wait for ever). */
static int resolve(const struct kft_func_ref *ref, unsigned long *addr)
{
	/* registered disabled: looked up and checked, never armed */
	struct kprobe kp = { .symbol_name = ref->name,
			     .addr = ref->name ? NULL : (kprobe_opcode_t *)(unsigned long)ref->addr,
			     .flags = KPROBE_FLAG_DISABLED };
	char word[32];
	int ret;

	if (!ref->name)
		snprintf(word, sizeof(word), "0x%llx", ref->addr);
	ret = register_kprobe(&kp);
	if (ret) {
		pr_err("kft: /proc/kft:%u: '%s': no kernel function %s that can be traced\n",
		       ref->line, ref->name ? ref->name : word,
		       ref->name ? "of that name" : "starts there");
		return -EINVAL;
	}
	*addr = (unsigned long)kp.addr;
	/* a kprobe at a function's ftrace call: ftrace can trace it */
	ret = kp.flags & KPROBE_FLAG_FTRACE ? 0 : -EINVAL;
	unregister_kprobe(&kp);
	if (ret)
		pr_err("kft: /proc/kft:%u: '%s': ftrace cannot trace this function\n", ref->line,
		       ref->name ? ref->name : word);
	return ret;
}

static int set_trigger(struct kft_mtrigger *m, const struct kft_trigger *t)
{
	m->type = t->type;
	m->usecs = t->usecs;
	if (t->type == KFT_TRIGGER_ENTRY || t->type == KFT_TRIGGER_EXIT)
		return resolve(&t->func, &m->addr);
	return 0;
}

/* A funclist (or notrace, skip) entry into kft_ops' filters. It says
 * what is wrong itself. */
static int filter_one(const struct kft_func_ref *ref, bool skip)
{
	const char *list = skip ? "notrace" : "funclist";
	unsigned long addr;
	char *name;
	int ret;

	/* one function: by address, so that each of its names works (ftrace
	 * matches the one kallsyms gives; sys_getppid's entry has two) */
	if (!skip && (!ref->name || !kft_is_glob(ref->name))) {
		if (resolve(ref, &addr))
			return -EINVAL;
		return ftrace_set_filter_ip(&kft_ops, addr, 0, 0);
	}
	if (!ref->name) {
		pr_err("kft: /proc/kft:%u: notrace takes function names\n", ref->line);
		return -EINVAL;
	}
	name = kstrdup(ref->name, GFP_KERNEL);
	if (!name)
		return -ENOMEM;
	ret = skip ? ftrace_set_notrace(&kft_ops, name, strlen(name), 0) :
		     ftrace_set_filter(&kft_ops, name, strlen(name), 0);
	kfree(name);
	if (ret)
		pr_err("kft: /proc/kft:%u: %s: no kernel function ftrace can trace matches '%s'\n",
		       ref->line, list, ref->name);
	return ret;
}

static bool listed(const struct kft_config *cfg, const struct kft_func_ref *ref)
{
	for (size_t i = 0; i < cfg->nfuncs; i++)
		if (ref->name ? cfg->funcs[i].name && !strcmp(ref->name, cfg->funcs[i].name) :
				!cfg->funcs[i].name && ref->addr == cfg->funcs[i].addr)
			return true;
	return false;
}

/* ftrace's filters for run: its funclist and the functions its triggers
 * need, its notrace list; all functions without a funclist */
static int set_filters(struct kft_run *run)
{
	const struct kft_config *cfg = &run->cfg;
	const struct kft_trigger *trig[2] = { &cfg->start, &cfg->stop };
	const struct kft_mtrigger *mt[2] = { &run->start, &run->stop };
	size_t i;
	int ret;

	ftrace_set_filter(&kft_ops, NULL, 0, 1);
	ftrace_set_notrace(&kft_ops, NULL, 0, 1);
	for (i = 0; i < cfg->nfuncs; i++) {
		ret = filter_one(&cfg->funcs[i], false);
		if (ret)
			return ret;
	}
	for (i = 0; cfg->has_funclist && i < 2; i++) {
		if ((mt[i]->type != KFT_TRIGGER_ENTRY && mt[i]->type != KFT_TRIGGER_EXIT) ||
		    listed(cfg, &trig[i]->func))
			continue;
		if (ftrace_set_filter_ip(&kft_ops, mt[i]->addr, 0, 0)) {
			pr_err("kft: /proc/kft:%u: the kernel cannot trace the trigger's function\n",
			       trig[i]->func.line);
			return -EINVAL;
		}
		run->trigger_only[i] = mt[i]->addr;
	}
	for (i = 0; i < cfg->skip_list.n; i++) {
		ret = filter_one(&cfg->skip_list.refs[i], true);
		if (ret)
			return ret;
	}
	return 0;
}

/* What kft record takes and this module does not: said, not ignored. */
static int supported(const struct kft_config *cfg)
{
	const char *what = cfg->watch ? "watch" : cfg->graph.set ? "filter graph" :
			   cfg->max_depth ? "filter depth" : cfg->overwrite ? "overwrite" :
			   cfg->nsets ? "set" : NULL;

	if (!what)
		return 0;
	pr_err("kft: /proc/kft: '%s' is not supported by the kernel module (kft record --kernel has it)\n",
	       what);
	return -EINVAL;
}

static int by_addr(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* The args statement's functions, by address (names: one function each;
 * the spec is the user-space runtime's, here KFT's three words). */
static int set_args(struct kft_run *run)
{
	const struct kft_func_list *l = &run->cfg.args;

	if (!l->n)
		return 0;
	run->args_fns = kcalloc(l->n, sizeof(*run->args_fns), GFP_KERNEL);
	if (!run->args_fns)
		return -ENOMEM;
	for (size_t i = 0; i < l->n; i++) {
		if (l->refs[i].name && kft_is_glob(l->refs[i].name)) {
			pr_err("kft: /proc/kft:%u: args: '%s': the kernel module takes function "
			       "names, not globs\n", l->refs[i].line, l->refs[i].name);
			return -EINVAL;
		}
		if (resolve(&l->refs[i], &run->args_fns[i]))
			return -EINVAL;
	}
	run->nargs_fns = l->n;
	sort(run->args_fns, run->nargs_fns, sizeof(*run->args_fns), by_addr, NULL);
	return 0;
}

static void free_run(struct kft_run *run)
{
	if (!run)
		return;
	kfree(run->args_fns);
	kvfree(run->log);
	free_percpu(run->timed);
	kft_config_release(&run->cfg);
	kfree(run);
}

static int alloc_log(struct kft_run *run)
{
	run->requested = run->cfg.logentries_set ? run->cfg.logentries : KFT_MODULE_LOGENTRIES;
	for (run->cap = run->requested; run->cap >= 100; run->cap /= 2) {
		run->log = kvcalloc(run->cap, sizeof(*run->log), GFP_KERNEL | __GFP_NOWARN);
		if (run->log)
			break;
	}
	if (!run->log) {
		pr_err("kft: Could not allocate %llu bytes for kft log.\n",
		       run->requested * (u64)sizeof(*run->log));
		return -ENOMEM;
	}
	if (run->cap < run->requested)
		pr_info("kft: Allocated %llu log entries (%llu were requested).\n", run->cap,
			run->requested);
	return 0;
}

int kft_run_install(const char *text, size_t len)
{
	struct kft_run *run = kzalloc(sizeof(*run), GFP_KERNEL), *old;
	struct kft_error err;
	int ret;

	if (!run)
		return -ENOMEM;
	if (kft_config_parse(&run->cfg, text, len, "/proc/kft", &err)) {
		pr_err("kft: %s\n", err.msg);
		kfree(run);
		return -EINVAL;
	}
	ret = supported(&run->cfg);
	if (!ret)
		ret = set_trigger(&run->start, &run->cfg.start);
	if (!ret)
		ret = set_trigger(&run->stop, &run->cfg.stop);
	if (!ret)
		ret = set_args(run);
	if (!ret)
		ret = alloc_log(run);
	if (!ret) {
		run->timed = alloc_percpu(u64);
		ret = run->timed ? 0 : -ENOMEM;
	}
	if (ret) {
		free_run(run);
		return ret;
	}
	run->min_ns = run->cfg.mintime * 1000;
	run->max_ns = run->cfg.maxtime * 1000;
	run->noints = run->cfg.noints;
	run->onlyints = run->cfg.onlyints;
	run->autorepeat = run->cfg.autorepeat;
	/* the old run keeps running until the new one is ready */
	disarm();
	ret = set_filters(run);
	if (ret) {
		free_run(run);
		/* the old run goes on, with its own filters */
		old = rcu_dereference_protected(kft_live, lockdep_is_held(&kft_lock));
		if (old && !set_filters(old) && (old->state & (KFT_PRIMED | KFT_TRIGGERED)) &&
		    !(old->state & KFT_COMPLETE))
			arm();
		return ret;
	}
	run->id = ++last_id;
	old = rcu_dereference_protected(kft_live, lockdep_is_held(&kft_lock));
	rcu_assign_pointer(kft_live, run);
	synchronize_rcu();
	free_run(old);
	pr_info("kft: new kft run installed\n");
	if (run->cfg.prime) {
		run->state = KFT_PRIMED;
		return arm();
	}
	return 0;
}

/* prime, start, stop (kft_lock held) */
int kft_run_command(const char *word)
{
	struct kft_run *run = rcu_dereference_protected(kft_live, lockdep_is_held(&kft_lock));
	unsigned long st;

	if (!run) {
		pr_err("kft: %s: no run: write a config to /proc/kft first\n", word);
		return -EINVAL;
	}
	st = READ_ONCE(run->state);
	if (st & KFT_COMPLETE) {
		pr_err("kft: %s: the run is complete: write a new config to /proc/kft\n", word);
		return -EINVAL;
	}
	if (!strcmp(word, "prime")) {
		if (st & KFT_TRIGGERED) {
			pr_err("kft: prime: the run has started already\n");
			return -EINVAL;
		}
		set_bit(0, &run->state);	/* KFT_PRIMED */
		return arm();
	}
	if (!strcmp(word, "start")) {
		if (st & KFT_TRIGGERED) {
			pr_err("kft: start: the run has started already\n");
			return -EINVAL;
		}
		kft_run_fire_start(run, sched_clock(), KFT_TRIGGER_USER);
		return arm();
	}
	kft_run_fire_stop(run, sched_clock(), KFT_TRIGGER_USER);
	disarm();
	return 0;
}

/* ftrace stays attached no longer than the run needs it */
void kft_run_tidy(void)
{
	struct kft_run *run = rcu_dereference_protected(kft_live, lockdep_is_held(&kft_lock));

	if (run && (READ_ONCE(run->state) & KFT_COMPLETE))
		disarm();
}

void kft_run_shutdown(void)
{
	struct kft_run *run;

	mutex_lock(&kft_lock);
	disarm();
	mutex_unlock(&kft_lock);
	kft_tasks_exit();
	run = rcu_dereference_protected(kft_live, true);
	RCU_INIT_POINTER(kft_live, NULL);
	synchronize_rcu();
	free_run(run);
}
