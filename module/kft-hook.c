// SPDX-License-Identifier: GPL-2.0-only
/*
 * KFT's per-event algorithm (kft-spec §4.3) split at the call: the entry
 * callback tests the start trigger, the filters that entry can decide
 * (noints, onlyints, cpus; funclist is ftrace's own filter) and pushes a frame;
 * kft_exit, on the way back, times the call, applies mintime and maxtime
 * and logs what is kept. Neither prints, allocates, sleeps or locks.
 */
#include <linux/hardirq.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>

#include "kft-module.h"

void kft_log_call(struct kft_run *run, const struct kft_mod_frame *f, s64 dur_ns)
{
	u64 i = atomic64_inc_return(&run->next) - 1;
	struct kft_mod_call *r;

	if (i >= run->cap) {
		atomic64_set(&run->next, run->cap);
		atomic64_inc(&run->log_full);
		kft_run_fire_stop(run, sched_clock(), KFT_TRIGGER_LOG_FULL);
		return;
	}
	r = &run->log[i];
	r->entry_ns = f->entry_ns;
	r->dur_ns = dur_ns;
	r->func = f->func;
	r->site = f->ret;
	r->pid = f->pid;
	r->cpu = (u16)raw_smp_processor_id();
	r->saved = f->saved;
	if (f->saved)
		memcpy(r->saved_args, f->saved_args, sizeof(r->saved_args));
	smp_store_release(&r->ready, 1);
}

static bool time_fires(const struct kft_mtrigger *t, u64 now, u64 base)
{
	return t->type == KFT_TRIGGER_TIME && now / 1000 >= base / 1000 + t->usecs;
}

/* Trigger t fires at this event (KFT_TRIGGER_ENTRY or _EXIT) of ip. */
static bool fires_at(const struct kft_mtrigger *t, enum kft_trigger_type type, unsigned long ip)
{
	return t->type == type && ip == t->addr;
}

static bool in_funclist(const struct kft_run *run, unsigned long ip)
{
	return ip != run->trigger_only[0] && ip != run->trigger_only[1];
}

/* Whether the args statement names the function at ip. */
static bool args_wanted(const struct kft_run *run, unsigned long ip)
{
	size_t lo = 0, hi = run->nargs_fns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (run->args_fns[mid] == ip)
			return true;
		if (run->args_fns[mid] < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static void notrace kft_entry(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			      struct ftrace_regs *fregs)
{
	struct kft_run *run = rcu_dereference_sched(kft_live);
	unsigned long *retp, st;
	struct kft_stack *s;
	struct kft_mod_frame *f;
	bool running, logged, irq;
	unsigned int d;
	u64 now;

	if (!run)
		return;
	st = READ_ONCE(run->state);
	if (st & KFT_COMPLETE || !(st & (KFT_PRIMED | KFT_TRIGGERED)))
		return;
	now = sched_clock();
	if (!(st & KFT_TRIGGERED)) {
		if (fires_at(&run->start, KFT_TRIGGER_ENTRY, ip) ||
		    time_fires(&run->start, now, 0))
			kft_run_fire_start(run, now, run->start.type);
		st = READ_ONCE(run->state);
	}
	running = (st & KFT_TRIGGERED) && !(st & KFT_COMPLETE);
	logged = running && in_funclist(run, ip);
	irq = in_interrupt();
	if (logged && run->noints && irq) {
		atomic64_inc(&run->noints_filtered);
		logged = false;
	} else if (logged && run->onlyints && !irq) {
		atomic64_inc(&run->onlyints_filtered);
		logged = false;
	} else if (logged && !kft_config_cpu_in(&run->cfg, raw_smp_processor_id())) {
		atomic64_inc(&run->cpus_filtered);
		logged = false;
	}
	/* a trigger's exit must be seen even when the call is not logged */
	if (!logged && !(fires_at(&run->start, KFT_TRIGGER_EXIT, ip) ||
			 fires_at(&run->stop, KFT_TRIGGER_EXIT, ip)))
		goto stop_test;
	retp = (unsigned long *)fregs->regs.sp;
	if (!retp)
		goto stop_test;
	s = kft_stack_of(current, in_task());
	if (!s) {
		atomic64_inc(&run->no_stack);
		goto stop_test;
	}
	if (READ_ONCE(s->dead))
		goto stop_test;
	d = READ_ONCE(s->depth);
	if (d >= KFT_DEPTH) {
		atomic64_inc(&run->too_deep);
		goto stop_test;
	}
	/* take the place first: an NMI here pushes above it */
	WRITE_ONCE(s->depth, d + 1);
	barrier();
	f = &s->frames[d];
	f->ret = *retp;
	f->retp = retp;
	f->func = ip;
	f->entry_ns = now;
	f->run_id = run->id;
	f->cycle = READ_ONCE(run->cycle);
	f->logged = logged;
	f->pid = irq ? -1 : current->pid;
	/* KFT's SAVE_ARGS: the stack pointer and the argument registers as
	 * ftrace saved them for us (WITH_ARGS) */
	f->saved = logged && run->nargs_fns && args_wanted(run, ip);
	if (f->saved) {
		f->saved_args[0] = (unsigned long)retp;
		f->saved_args[1] = fregs->regs.di;
		f->saved_args[2] = fregs->regs.si;
		f->saved_args[3] = fregs->regs.dx;
	}
	barrier();
	*retp = (unsigned long)kft_return;
stop_test:
	/* after the push: a stop at this entry logs the call, open (S2/S3);
	 * triggers ignore the filters */
	if (running && (fires_at(&run->stop, KFT_TRIGGER_ENTRY, ip) ||
		       time_fires(&run->stop, now, run->start.mark_ns)))
		kft_run_fire_stop(run, now, run->stop.type);
}

/* RCU: called only where RCU watches, so that kft_live stays valid */
struct ftrace_ops kft_ops = {
	.func = kft_entry,
	.flags = FTRACE_OPS_FL_RCU,
};

/* The call whose frame f was has returned, at now. */
static void call_returned(struct kft_run *run, const struct kft_mod_frame *f, u64 now)
{
	unsigned long st = READ_ONCE(run->state);
	bool running = (st & KFT_TRIGGERED) && !(st & KFT_COMPLETE);

	if (f->logged) {
		s64 dur = now - f->entry_ns;

		this_cpu_inc(*run->timed);
		if (!running || f->cycle != READ_ONCE(run->cycle))
			/* open when its run stopped: KFT's -1 */
			kft_log_call(run, f, -1);
		else if ((run->min_ns && dur < run->min_ns) || (run->max_ns && dur > run->max_ns))
			atomic64_inc(&run->time_filtered);
		else
			kft_log_call(run, f, dur);
	} else if (running) {
		atomic64_inc(&run->not_found);
	}
	if (!(st & KFT_TRIGGERED) && (st & KFT_PRIMED) &&
	    (fires_at(&run->start, KFT_TRIGGER_EXIT, f->func) ||
	     time_fires(&run->start, now, 0)))
		kft_run_fire_start(run, now, run->start.type);
	else if (running && (fires_at(&run->stop, KFT_TRIGGER_EXIT, f->func) ||
			     time_fires(&run->stop, now, run->start.mark_ns)))
		kft_run_fire_stop(run, now, run->stop.type);
}

/*
 * Called by kft_return with the stack pointer just after the return: the
 * frame whose return address was right below it is ours. Frames above it
 * belong to calls that will never return here (left by an oops, say).
 */
unsigned long notrace kft_exit(unsigned long *sp)
{
	struct kft_stack *s;
	struct kft_mod_frame f;
	struct kft_run *run;
	unsigned int d;
	u64 now = sched_clock();

	preempt_disable_notrace();
	s = kft_stack_of(current, false);
	BUG_ON(!s);
	d = READ_ONCE(s->depth);
	while (d && s->frames[d - 1].retp != sp - 1)
		d--;
	BUG_ON(!d);
	f = s->frames[d - 1];
	barrier();
	WRITE_ONCE(s->depth, d - 1);
	/* a call that entered idle returns where RCU may not watch: the
	 * run cannot be looked at there, the call goes unlogged */
	run = rcu_is_watching() ? rcu_dereference_sched(kft_live) : NULL;
	if (run && f.run_id == run->id)
		call_returned(run, &f, now);
	preempt_enable_notrace();
	return f.ret;
}
