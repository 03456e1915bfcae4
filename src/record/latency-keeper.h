/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kft record --latency FUNC: as ftrace's latency tracers kept
 * tracing_max_latency and the trace that made it, kft keeps the longest
 * call of FUNC seen so far. The program's threads log into rings; a
 * thread of kft record reads the calls as they end, and when a call of
 * FUNC is longer than any before, copies the trace as it stands (every
 * thread's ring: the call's subtree and what the others did meanwhile)
 * into DIR/latency.N and points DIR/latency at it. `kft latency DIR`
 * reads it, at any moment.
 */
#ifndef KFT_LATENCY_KEEPER_H
#define KFT_LATENCY_KEEPER_H

#define KFT_LATENCY_LINK "latency"		/* -> latency.N, the newest copy */

struct kft_latency_keeper;

#include "../common/error.h"

/* Start keeping the longest call of func in the trace in dir; NULL, with
 * err set, if it cannot. */
struct kft_latency_keeper *kft_latency_keeper_start(const char *dir, const char *func,
						    struct kft_error *err);

/* A last look at the calls, then stop. *copy: the newest copy's
 * directory (for its symbols to be saved), or NULL when no call of func
 * ended; free it. -1, with err set, if a copy could not be made on the
 * way (the one before it, if any, stays the newest). */
int kft_latency_keeper_stop(struct kft_latency_keeper *k, char **copy, struct kft_error *err);

#endif
