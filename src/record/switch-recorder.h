/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The traced program's context switches, recorded by `kft record` from
 * the kernel's perf events (PERF_RECORD_SWITCH, one event a CPU following
 * the program and every thread and child it starts) into the trace's
 * switches file, while the program runs. Needs no privilege where
 * kernel.perf_event_paranoid allows a user to watch their own processes
 * (2 or less); where it cannot, kft says why and traces without them.
 */
#ifndef KFT_SWITCHES_REC_H
#define KFT_SWITCHES_REC_H

#include <stddef.h>
#include <sys/types.h>

struct kft_switch_rec;

/*
 * Follow pid (stopped before exec: the events start with its exec) into
 * dir's switches file. NULL, with why set, when it cannot.
 */
struct kft_switch_rec *kft_switches_start(pid_t pid, const char *dir, char *why, size_t whysize);

/* Start reading, times since clock_base_ns (the trace's, set once the
 * events are open): 0, or -1 with why set (then stop it). */
int kft_switches_begin(struct kft_switch_rec *r, uint64_t clock_base_ns, char *why,
		       size_t whysize);

/* Read what is left, close; how many switches were lost (the kernel's
 * buffer full) goes in *lost. */
void kft_switches_stop(struct kft_switch_rec *r, unsigned long long *lost);

#endif
