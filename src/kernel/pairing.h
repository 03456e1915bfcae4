/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One task's function_graph events as call records: an entry opens a
 * frame at its depth, the exit at that depth closes it (an exit carries
 * its call's duration, so a call whose entry was lost still has one), a
 * plain function event is a call of unknown length. What the events do
 * not pair is kept as it came: the reader copes with any of it.
 *
 * The args statement's kprobe events (kprobe-args.h) come just before
 * their call's entry or just after it (inside it when the probe's own
 * handler is traced), the kretprobe's inside the call before its exit
 * or just after it: each is joined to the call of its function it is
 * next to, and one that has none is dropped.
 */
#ifndef KFT_KERNEL_PAIRING_H
#define KFT_KERNEL_PAIRING_H

#include <stddef.h>
#include <stdint.h>

#include "../config/config.h"
#include "../format/trace-format.h"

#define KFT_KEV_MAX_DEPTH 256

enum { KFT_KEV_ENTRY, KFT_KEV_EXIT, KFT_KEV_FUNCTION, KFT_KEV_ARGS, KFT_KEV_RETVAL };

struct kft_kev {
	uint64_t ts;		/* CLOCK_MONOTONIC ns */
	uint64_t func;
	uint64_t extra;		/* EXIT: duration; FUNCTION: the caller;
				 * ARGS, RETVAL: where its values are kept */
	uint32_t seq;
	int32_t pid;
	int32_t depth;
	uint8_t type;
	uint8_t irq;
};

#define KFT_KEV_NONE UINT64_MAX

/* A call's saved values: the ARGS and RETVAL events' extra, or NONE. */
struct kft_kev_args {
	uint64_t entry_ns, func;
	uint64_t args, ret;
};

struct kft_task_out {
	struct kft_rec_data *recs;
	size_t n, cap;
	struct kft_frame frames[KFT_KEV_MAX_DEPTH];
	uint64_t frame_args[KFT_KEV_MAX_DEPTH];	/* frames[d]'s ARGS, or NONE */
	uint64_t frame_ret[KFT_KEV_MAX_DEPTH];	/* frames[d]'s RETVAL, or NONE */
	size_t top;
	struct kft_counters c;
	struct kft_kev_args *args;	/* in the order the calls ended */
	size_t nargs, args_cap;
};

/* A task's events (n of them, in time order) into t's records and open
 * frames, times since base; cfg's duration and interrupt filters applied.
 * -1 when out of memory. */
int kft_kernel_pair(const struct kft_kev *ev, size_t n, const struct kft_config *cfg,
		    uint64_t base, struct kft_task_out *t);

/* logentries: the first N records, or with overwrite the last N. */
void kft_kernel_cut(struct kft_task_out *t, const struct kft_config *cfg);

#endif
