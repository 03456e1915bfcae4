/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's interrupt events (irq/irq_handler_entry and _exit,
 * irq/softirq_entry and _exit, with kft record --kernel --irqs) as calls
 * of one pseudo-task a CPU ("irq/cpuN"), each interrupt a function of its
 * own, "irq16:eth0" or "softirq:TIMER" (x86's local APIC timer, from
 * irq_vectors/local_timer_entry, "irq:local_timer"), so that every view, and kft stats
 * above all, shows them: KPTrace's interrupt table. Their names go into
 * the trace's kallsyms at addresses no kernel text uses.
 */
#ifndef KFT_IRQ_EVENTS_H
#define KFT_IRQ_EVENTS_H

#include <stdbool.h>
#include <stdio.h>

#include <event-parse.h>

#include "pairing.h"

/* The pseudo-task of CPU n: a tid past any pid the kernel gives. */
#define KFT_IRQ_TASK_BASE 0x7fff0000
#define KFT_IRQ_MAX_NEST 16

struct kft_irq_name {
	uint64_t addr;
	char name[64];
};

struct kft_irq_cpu {
	int depth;
	uint64_t entry_ts[KFT_IRQ_MAX_NEST];
};

struct kft_irq_state {
	int entry_id, exit_id, soft_entry_id, soft_exit_id;
	int timer_entry_id, timer_exit_id;	/* x86's local APIC timer */
	struct tep_format_field *entry_irq, *entry_name, *exit_irq, *soft_vec, *soft_exit_vec;
	struct kft_irq_cpu *cpus;
	int ncpus;
	struct kft_irq_name *names;
	size_t nnames, capnames;
	bool oom;
};

/* The events' layouts, if tracefs describes them (else none is met). */
void kft_irq_init(struct kft_irq_state *s, struct tep_handle *tep);

/* Whether event is one of them: then *e is its call event (false, with
 * s->oom, when out of memory). */
bool kft_irq_event(struct kft_irq_state *s, struct tep_event *event, struct tep_record *rec,
		   int cpu, struct kft_kev *e);

/* The names met, as kallsyms lines. */
void kft_irq_put_names(const struct kft_irq_state *s, FILE *out);

void kft_irq_free(struct kft_irq_state *s);

#endif
