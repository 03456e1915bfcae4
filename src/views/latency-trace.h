/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ftrace's latency_trace layout, as the seed shows it (Linux 2.6.26): a
 * header naming the latency and where it started and ended, the flag
 * columns' legend, and a row a call, "cmd-pid" then five flags, the time
 * from the start, the delay mark, "func (caller)". One printer for every
 * view that prints it: `kft ftrace -t latency`, `kft latency`.
 */
#ifndef KFT_VIEW_LATENCY_TRACE_H
#define KFT_VIEW_LATENCY_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct kft_lat_head {
	const char *tracer;	/* "# tracer: ..." */
	const char *title;	/* the line under it */
	uint64_t latency_us;
	uint64_t shown, total;	/* rows printed, calls in the window */
	const char *cpu;	/* its CPU, "-" where not known */
	const char *task;	/* "comm-pid", or NULL: no task line */
	const char *started;	/* NULL: no started/ended lines */
	const char *ended;
	bool verbose;		/* the legend of kft_lat_row_verbose's rows */
};

struct kft_lat_row {
	const char *comm;
	uint32_t pid;
	int64_t cpu;		/* < 0: not known */
	bool handler;		/* in a signal handler (an interrupt's, in the kernel) */
	uint64_t entry_ns;	/* since the clock base */
	uint64_t rel_ns;	/* since the window's start */
	uint64_t delay_ns;	/* to the next row */
	uint64_t index;		/* verbose: its place in the window */
	const char *func, *caller;
};

void kft_lat_head(FILE *out, const struct kft_lat_head *h);
void kft_lat_row(FILE *out, const struct kft_lat_row *r);
/* iter_ctrl's verbose: comm pid cpu flags preempt-count index [time]
 * ms (+delay ms): func (caller) */
void kft_lat_row_verbose(FILE *out, const struct kft_lat_row *r);

#endif
