// SPDX-License-Identifier: GPL-2.0-only
/*
 * A shadow stack per task: the return addresses kft_return stands in for.
 * The table is allocated once; a task takes a stack at its first traced
 * call in task context (never in an interrupt, so two contexts of one task
 * cannot take two), keeps it until it is freed (sched_process_free), and
 * stops pushing when it starts to exit (sched_process_exit): the frames
 * open then, do_exit's and its callers', never return.
 */
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/stop_machine.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>

#include "kft-module.h"

#define KFT_STACK_FREE ((struct task_struct *)1)

static unsigned int tasks = 1024;
module_param(tasks, uint, 0444);
MODULE_PARM_DESC(tasks, "tasks traced at once (shadow stacks, rounded up to a power of 2)");

static struct kft_stack *stacks;
static unsigned int nstacks;	/* a power of 2 */

struct kft_stack *kft_stack_of(struct task_struct *t, bool claim)
{
	unsigned int h = hash_ptr(t, ilog2(nstacks)), i;
	struct task_struct *o;
	struct kft_stack *s;

	for (i = 0; i < nstacks; i++) {
		s = &stacks[(h + i) & (nstacks - 1)];
		o = READ_ONCE(s->owner);
		if (o == t)
			return s;
		if (!o)
			break;
	}
	if (!claim)
		return NULL;
	/* the first unused or freed place on t's probe path: a lookup of t
	 * never meets an unused place before it */
	for (i = 0; i < nstacks; i++) {
		s = &stacks[(h + i) & (nstacks - 1)];
		o = READ_ONCE(s->owner);
		if ((!o || o == KFT_STACK_FREE) && cmpxchg(&s->owner, o, t) == o)
			return s;
	}
	return NULL;
}

static void notrace on_exit(void *data, struct task_struct *t)
{
	struct tracepoint *tp = data;
	struct kft_stack *s = kft_stack_of(t, false);
	unsigned int d;

	if (!s)
		return;
	/* the frames open now are do_exit's and its callers', which never
	 * return, and maybe the tracepoint's iterator (traced as any
	 * function), which returns right after this */
	d = READ_ONCE(s->depth);
	if (d && s->frames[d - 1].func == (unsigned long)tp->iterator)
		d--;
	s->dead_depth = d;
	WRITE_ONCE(s->dead, true);
}

static void notrace on_free(void *data, struct task_struct *t)
{
	struct kft_stack *s = kft_stack_of(t, false);

	if (!s)
		return;
	s->depth = 0;
	s->dead = false;
	s->dead_depth = 0;
	smp_store_release(&s->owner, KFT_STACK_FREE);
}

struct kft_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;
};

static struct kft_tp tps[] = {
	{ "sched_process_exit", on_exit },
	{ "sched_process_free", on_free },
};

static void find_tp(struct tracepoint *tp, void *arg)
{
	for (size_t i = 0; i < ARRAY_SIZE(tps); i++)
		if (!strcmp(tp->name, tps[i].name))
			tps[i].tp = tp;
}

int kft_tasks_init(void)
{
	size_t i;
	int ret;

	nstacks = roundup_pow_of_two(max(tasks, 16U));
	stacks = vzalloc(array_size(nstacks, sizeof(*stacks)));
	if (!stacks)
		return -ENOMEM;
	for_each_kernel_tracepoint(find_tp, NULL);
	for (i = 0; i < ARRAY_SIZE(tps); i++) {
		ret = tps[i].tp ? tracepoint_probe_register(tps[i].tp, tps[i].probe, tps[i].tp) :
				  -ENOENT;
		if (ret) {
			pr_err("kft: cannot attach to tracepoint %s (%d)\n", tps[i].name, ret);
			while (i--)
				tracepoint_probe_unregister(tps[i].tp, tps[i].probe, tps[i].tp);
			vfree(stacks);
			return ret;
		}
	}
	return 0;
}

/* Every live task's stack gets its own return addresses back: run with
 * every CPU stopped, so none is returning meanwhile. An exiting task's
 * frames below dead_depth never return (and its stack may be gone). */
static int give_back(void *unused)
{
	for (unsigned int i = 0; i < nstacks; i++) {
		struct kft_stack *s = &stacks[i];
		struct task_struct *o = s->owner;

		if (!o || o == KFT_STACK_FREE)
			continue;
		for (unsigned int d = s->dead ? s->dead_depth : 0; d < s->depth && d < KFT_DEPTH;
		     d++) {
			struct kft_mod_frame *f = &s->frames[d];

			if (*f->retp == (unsigned long)kft_return)
				*f->retp = f->ret;
		}
	}
	return 0;
}

/* After kft_ops is gone: no task may return into this module again. */
void kft_tasks_exit(void)
{
	size_t i;

	stop_machine(give_back, NULL, NULL);
	/* a task preempted inside kft_return itself leaves it at its next
	 * voluntary switch */
	synchronize_rcu_tasks();
	for (i = 0; i < ARRAY_SIZE(tps); i++)
		tracepoint_probe_unregister(tps[i].tp, tps[i].probe, tps[i].tp);
	tracepoint_synchronize_unregister();
	vfree(stacks);
}

void kft_tasks_each_open(u32 run_id, void (*fn)(const struct kft_mod_frame *f, void *arg), void *arg)
{
	for (unsigned int i = 0; i < nstacks; i++) {
		struct kft_stack *s = &stacks[i];
		struct task_struct *o = READ_ONCE(s->owner);
		unsigned int depth = min_t(unsigned int, READ_ONCE(s->depth), KFT_DEPTH);

		if (!o || o == KFT_STACK_FREE)
			continue;
		for (unsigned int d = 0; d < depth; d++) {
			struct kft_mod_frame f = s->frames[d];

			if (f.logged && f.run_id == run_id)
				fn(&f, arg);
		}
	}
}
