/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kft.ko: KFT's /proc/kft and /proc/kft_data on today's kernels. Entries
 * come from an ftrace_ops; exits from a return address swapped for
 * kft_return (kft-return.S), the way function_graph does it, with a shadow
 * stack per task of our own (kft-tasks.c). Calls are logged when they
 * return, after the duration filters, so only kept calls fill the log.
 */
#ifndef KFT_MODULE_H
#define KFT_MODULE_H

#include <linux/atomic.h>
#include <linux/ftrace.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/types.h>

#include "config/config.h"

#ifndef CONFIG_X86_64
#error "kft.ko's return stub (kft-return.S) is x86-64 code"
#endif
#if !defined(CONFIG_DYNAMIC_FTRACE_WITH_ARGS) && !defined(CONFIG_DYNAMIC_FTRACE_WITH_REGS)
#error "kft.ko needs ftrace to give its callback the stack pointer (DYNAMIC_FTRACE_WITH_ARGS)"
#endif

/* KFT's default log size (kernel calls are slower and fewer than a
 * program's: the user-space default would take 48 MB here) */
#define KFT_MODULE_LOGENTRIES 20000
/* frames per task; calls deeper are run but not timed (counted) */
#define KFT_DEPTH 96

/* run state bits, as KFT's three flags */
#define KFT_PRIMED	1UL
#define KFT_TRIGGERED	2UL
#define KFT_COMPLETE	4UL

/* one logged call: finished, or (in a reader's snapshot) still open (the
 * module's own record, not the trace format's struct kft_rec) */
struct kft_mod_call {
	u64 entry_ns;		/* sched_clock at entry */
	s64 dur_ns;		/* -1: not returned when the run stopped */
	unsigned long func;
	unsigned long site;	/* the return address in the caller */
	s32 pid;		/* -1: interrupt context */
	u16 cpu;		/* where it returned */
	u8 ready;		/* written last: the reader skips a record being filled */
	u8 saved;		/* the args statement named it: saved[] holds */
	unsigned long saved_args[4];	/* KFT's SAVE_ARGS words: the stack pointer at
					 * entry, the first three argument registers */
};

struct kft_mtrigger {
	enum kft_trigger_type type;	/* as configured */
	unsigned long addr;		/* ENTRY, EXIT */
	u64 usecs;			/* TIME */
	enum kft_trigger_type how;	/* what fired it (USER, LOG_FULL too); NONE: not yet */
	u64 mark_ns;
};

struct kft_run {
	u32 id;
	struct kft_config cfg;		/* as written, for the status text */
	struct kft_mtrigger start, stop;
	u64 min_ns, max_ns;		/* 0: off */
	bool noints, onlyints, autorepeat;
	/* funclist addresses that are not in it but are traced for a trigger */
	unsigned long trigger_only[2];
	/* the args statement's functions, sorted: their calls keep KFT's
	 * SAVE_ARGS words */
	unsigned long *args_fns;
	size_t nargs_fns;
	unsigned long state;		/* KFT_PRIMED | KFT_TRIGGERED | KFT_COMPLETE */
	u16 cycle;			/* autorepeat: how many times it stopped */
	u64 first_start_ns;
	struct kft_mod_call *log;
	u64 cap;
	atomic64_t next;
	u64 requested;			/* logentries asked for */
	/* calls: removed by the time filter, by noints, by onlyints, by
	 * cpus (run->cfg's, tracing_cpumask's equivalent); exits
	 * without a logged entry; not logged: log full, too deep, no room
	 * for the task's shadow stack */
	atomic64_t time_filtered, noints_filtered, onlyints_filtered, cpus_filtered, not_found;
	atomic64_t log_full, too_deep, no_stack;
	u64 __percpu *timed;		/* calls timed, kept or not */
	struct rcu_head rcu;
};

/* kft-run.c: the current run (RCU: hooks read it preempt-disabled), its
 * config and state changes; kft_lock serialises the /proc writers */
extern struct kft_run __rcu *kft_live;
extern struct mutex kft_lock;
int kft_run_install(const char *text, size_t len);
int kft_run_command(const char *word);
void kft_run_fire_start(struct kft_run *run, u64 now, enum kft_trigger_type how);
void kft_run_fire_stop(struct kft_run *run, u64 now, enum kft_trigger_type how);
void kft_run_tidy(void);
void kft_run_shutdown(void);

/* kft-hook.c: the entry callback and the exit handler */
extern struct ftrace_ops kft_ops;
struct kft_mod_frame;
void kft_log_call(struct kft_run *run, const struct kft_mod_frame *f, s64 dur_ns);

/* kft-tasks.c: shadow stacks, one per task */
struct kft_mod_frame {
	unsigned long ret;	/* the return address we replaced */
	unsigned long *retp;	/* where it was on the stack */
	unsigned long func;
	u64 entry_ns;
	u32 run_id;
	u16 cycle;
	u8 logged;		/* 0: traced for a trigger only */
	u8 saved;		/* saved_args holds */
	s32 pid;
	unsigned long saved_args[4];	/* as struct kft_mod_call's */
};

struct kft_stack {
	struct task_struct *owner;	/* NULL: never used; KFT_STACK_FREE: free again */
	unsigned int depth;
	bool dead;			/* its task is exiting: it pushes no more */
	unsigned int dead_depth;	/* frames below it never return (do_exit's callers) */
	struct kft_mod_frame frames[KFT_DEPTH];
};

int kft_tasks_init(void);
void kft_tasks_exit(void);
struct kft_stack *kft_stack_of(struct task_struct *t, bool claim);
/* each open frame of a run, for a reader's snapshot (under kft_lock) */
void kft_tasks_each_open(u32 run_id, void (*fn)(const struct kft_mod_frame *f, void *arg),
			 void *arg);

/* kft-return.S */
void kft_return(void);

/* kft-proc.c: /proc/kft; kft-data.c: /proc/kft_data */
int kft_proc_init(void);
void kft_proc_exit(void);
const char *kft_fired_str(const struct kft_mtrigger *t, bool stop, char *buf, size_t size);
extern const struct proc_ops kft_data_ops;

#endif
