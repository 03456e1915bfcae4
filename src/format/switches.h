/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A trace's context switches (its switches file, if kft record could
 * make one), read as each thread's spans off the CPU: from a switch out
 * to the next switch in. Views ask how long a thread was off the CPU
 * within a call, and where.
 */
#ifndef KFT_SWITCHES_H
#define KFT_SWITCHES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/error.h"

struct kft_offcpu {
	uint64_t from_ns, to_ns;	/* since the trace's clock base */
	bool preempted;			/* still runnable when it went (else it slept) */
	char state;			/* as ftrace shows it: R preempted, S, D, ... */
	int16_t prio;			/* -1: not known */
	uint32_t to_tid, from_tid;	/* what ran when it went, and before it came back
					 * (KFT_SWITCH_UNKNOWN_TID: not known) */
	int16_t to_prio, from_prio;
	char from_state;		/* the state from_tid went in ('?': not known) */
	uint32_t cpu_out, cpu_in;	/* the CPU it left, the CPU it came back on */
};

/* A thread made runnable (kernel traces: sched_wakeup). */
struct kft_wakeup {
	uint64_t ns;
	uint32_t tid, waker;		/* waker: the task that woke it */
	uint32_t cpu;			/* where it is to run */
	int16_t prio, waker_prio;	/* -1: not known */
};

struct kft_switches {
	bool present;			/* recorded: an empty list means none happened */
	struct kft_wakeup *wakeups;	/* thread (woken) by thread, each in time order */
	size_t nwakeups;
	uint64_t nswitches;		/* records in the file */
	struct kft_offcpu *spans;	/* each thread's, in time order, thread by thread */
	uint64_t *before;		/* before[i]: off-CPU time of its thread's spans before i */
	size_t nspans;
	struct kft_switch_thread {
		uint32_t tid;
		size_t first, n;	/* its spans */
		uint32_t cpu;		/* where its first switch was */
	} *threads;			/* by tid */
	size_t nthreads;
};

/* dir's switches: none (present false) when it has no switches file. A
 * damaged file is an error; a short one gives what it holds. */
int kft_switches_load(struct kft_switches *sw, const char *dir, struct kft_error *err);
void kft_switches_free(struct kft_switches *sw);

/* How long thread tid was off the CPU within [from, to]. */
uint64_t kft_switches_off_ns(const struct kft_switches *sw, uint32_t tid, uint64_t from,
			     uint64_t to);

/* The CPU thread tid ran on at ns (it changes only while the thread is
 * off the CPU), or -1 when not known. */
int64_t kft_switches_cpu_at(const struct kft_switches *sw, uint32_t tid, uint64_t ns);

/* Thread tid's spans (NULL, 0: none). */
const struct kft_offcpu *kft_switches_of(const struct kft_switches *sw, uint32_t tid, size_t *n);
/* Thread tid's wakeups (NULL, 0: none). */
const struct kft_wakeup *kft_switches_wakeups_of(const struct kft_switches *sw, uint32_t tid,
					       size_t *n);

#endif
