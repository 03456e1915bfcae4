/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's sched/sched_switch events (kft record --kernel, unless
 * --no-switches) as the trace's switches file: for each switch, the task
 * that went (its priority and state, and what ran instead) and the task
 * that came, as kft record writes them for a program from perf events;
 * and sched_wakeup, each task made runnable, for kft latency --wakeup.
 */
#ifndef KFT_SCHED_EVENTS_H
#define KFT_SCHED_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include <event-parse.h>

#include "../common/error.h"
#include "../format/trace-format.h"

struct kft_sched_state {
	struct tep_handle *tep;
	int switch_id, wakeup_id;
	struct tep_format_field *prev_pid, *prev_prio, *prev_state, *next_pid, *next_prio;
	struct tep_format_field *woken_pid, *woken_prio, *target_cpu;
	struct kft_switch *v;
	size_t n, cap;
	bool oom;
};

/* The event's layout, if tracefs describes it (else none is met). */
void kft_sched_init(struct kft_sched_state *s, struct tep_handle *tep);

/* Whether event is sched_switch or sched_wakeup: then it is kept (times
 * since base). */
bool kft_sched_event(struct kft_sched_state *s, struct tep_event *event, struct tep_record *rec,
		     int cpu, uint64_t base);

/* The switches kept into dir's switches file, each with its thread
 * group (tgid_of); nothing when the event was never enabled. */
int kft_sched_write(const struct kft_sched_state *s, const char *dir, uint64_t base,
		    uint32_t (*tgid_of)(const void *ctx, uint32_t tid), const void *ctx,
		    struct kft_error *err);

void kft_sched_free(struct kft_sched_state *s);

#endif
