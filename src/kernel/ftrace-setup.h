/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The KFT configuration as ftrace settings. Every change goes through the
 * journal, filters are written before a tracer is chosen (choosing one
 * unfiltered patches every function in the kernel), and the function
 * names are checked against what the kernel can trace before anything
 * is touched.
 *
 *   trigger start|stop entry F   F:traceon / F:traceoff function triggers
 *   trigger start|stop exit F    a kretprobe on F whose event trigger
 *                                turns tracing on or off
 *   trigger start|stop time N    kft flips tracing_on itself (kft_kernel_set_on)
 *   filter mintime N             tracing_thresh
 *   filter maxtime, onlyints     applied when reading (ftrace-collect)
 *   filter noints                options/funcgraph-irqs off
 *   filter funclist ... fend     set_ftrace_filter
 *   logentries N                 buffer_size_kb, and a cut when reading
 *   overwrite                    options/overwrite (else stop when full)
 *   autorepeat                   triggers without a count
 *   watch stack N                the stack tracer's deepest stack
 *   args F@SPEC ... fend         kprobe events (kprobe-args.h)
 */
#ifndef KFT_FTRACE_SETUP_H
#define KFT_FTRACE_SETUP_H

#include <stdbool.h>
#include <sys/types.h>

#include "../common/error.h"
#include "../common/strmap.h"
#include "../config/config.h"
#include "journal.h"

struct kft_kernel {
	char dir[256];			/* the tracefs mount */
	bool graph;			/* function_graph tracer available */
	bool function;			/* function tracer available */
	bool stack_tracer;		/* /proc/sys/kernel/stack_tracer_enabled */
	struct kft_strmap traceable;	/* available_filter_functions */
	bool traceable_loaded;
	int on_fd;			/* tracing_on, held open */
	bool mounted;			/* kft mounted tracefs (and unmounts it) */
};

/* Find tracefs and what this kernel offers; fails with a clear message
 * when not root or when the kernel has no function tracer. */
int kft_kernel_probe(struct kft_kernel *k, struct kft_error *err);
void kft_kernel_release(struct kft_kernel *k);

/* The path of a tracefs file, in a static buffer. */
const char *kft_kernel_path(const struct kft_kernel *k, const char *name);

/*
 * Check cfg against the kernel: functions the kernel cannot trace (with
 * traceable neighbours named), addresses (turned into names through
 * /proc/kallsyms: cfg's refs get a name), watches without a stack tracer.
 * origin names the config in messages.
 */
int kft_kernel_check(struct kft_kernel *k, struct kft_config *cfg, const char *origin,
		     struct kft_error *err);

/* "filter cpus" as tracing_cpumask takes it: hex, a comma between each
 * 32 CPUs, the highest first ("3", "1,00000000"); buf of
 * KFT_CPUMASK_TEXT_MAX. */
#define KFT_CPUMASK_TEXT_MAX (KFT_MAX_CPUS / 4 + KFT_MAX_CPUS / 32 + 1)
const char *kft_kernel_cpumask_text(const struct kft_config *cfg, char *buf, size_t size);

/*
 * Set ftrace up for cfg, journaled. pid > 0 traces that process and its
 * children only. Tracing is on at return unless cfg has a start trigger.
 */
int kft_kernel_arm(struct kft_kernel *k, struct kft_journal *j, const struct kft_config *cfg,
		   pid_t pid, struct kft_error *err);

/* tracing_on (the journal already holds the value to restore). */
int kft_kernel_set_on(const struct kft_kernel *k, bool on, struct kft_error *err);
bool kft_kernel_is_on(const struct kft_kernel *k);

#endif
