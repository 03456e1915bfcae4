/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every thread of a running process held still through ptrace, with
 * where each was, while kft changes its code (stop-threads.c).
 */
#ifndef KFT_RECORD_STOP_THREADS_H
#define KFT_RECORD_STOP_THREADS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../common/error.h"

struct kft_stopped_thread {
	pid_t tid;
	uint64_t pc;		/* its instruction pointer */
};

struct kft_stopped {
	struct kft_stopped_thread *v;
	size_t n, cap;
};

/* Stop every thread of process pid but `except` (one seized already, or
 * 0), those it starts meanwhile too. 0, or -1 with err (the threads
 * stopped so far are in s: kft_threads_release them). */
int kft_threads_stop(pid_t pid, pid_t except, struct kft_stopped *s, struct kft_error *err);
/* Let them all run on. */
void kft_threads_release(struct kft_stopped *s);

#endif
