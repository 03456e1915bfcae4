/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What ftrace recorded, as kft call records: the function_graph events
 * of each task are paired (an exit carries its call's start and end, so
 * a call whose entry was never recorded still has its duration), written
 * as one thread file per task under a session of their own, with the
 * kernel's symbols saved beside them as `kallsyms`.
 */
#ifndef KFT_FTRACE_COLLECT_H
#define KFT_FTRACE_COLLECT_H

#include <stdint.h>

#include "../common/error.h"
#include "../config/config.h"

struct kft_kernel_result {
	uint64_t events;	/* ftrace events read */
	uint64_t calls;		/* call records written */
	uint64_t tasks;		/* thread files written */
	uint64_t lost;		/* events the ring buffer dropped or overwrote */
	uint64_t first_ns;	/* earliest call, since clock_base_ns (UINT64_MAX: none) */
	uint64_t max_stack;	/* stack tracer's deepest stack (watch) */
};

/*
 * Drain the ring buffer of the tracefs at tracing (consuming it) into
 * the trace directory dir. Times become nanoseconds since clock_base_ns
 * (CLOCK_MONOTONIC; ftrace must run with trace_clock mono). maxtime,
 * onlyints, noints and logentries of cfg are applied here.
 */
int kft_kernel_collect(const char *tracing, const char *dir, const struct kft_config *cfg,
		       uint64_t clock_base_ns, uint32_t session, struct kft_kernel_result *res,
		       struct kft_error *err);

/* A field of each CPU's per_cpu/cpuN/stats ("entries:", "overrun:"...), summed
 * over the CPUs and over the fields given (NULL-terminated). */
uint64_t kft_kernel_cpu_stat(const char *tracing, const char *const *fields);

#endif
