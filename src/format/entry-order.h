/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One thread file's calls in entry order, as the call streams read them
 * (trace-stream.c merges many, thread-stream.c reads one alone): where
 * each call's record is and how deep it is logged, and kd's Local when
 * asked for: 4 bytes a call each, in spilled arrays (common/spill.h) that
 * cost a few pages each.
 * Internal to src/format/.
 */
#ifndef KFT_ENTRY_ORDER_H
#define KFT_ENTRY_ORDER_H

#include "../common/spill.h"
#include "call-stream.h"

/* A stack-watch row: shown at the moment its chain was taken. */
struct kft_watch_row {
	uint64_t rec;
	uint64_t order_ns;	/* entry of the chain's deepest frame */
};

/* One thread file's calls in entry order. */
struct kft_source {
	const struct kft_thread_file *th;
	struct kft_spill32 *idx;
	struct kft_spill32 *depth;
	struct kft_spill32 *local;	/* kd's Local in usec, at each call's place */
	bool local_ready;	/* all written: the head has its Local */
	uint64_t n, pos;
	struct kft_watch_row *watch;
	uint64_t nwatch, wpos;
	uint64_t inherited_ns;	/* when the calls the image began inside show */
	struct kft_call head;	/* the next call, if has_head */
	int64_t head_local;	/* its Local in ns (-1: unfinished), if local */
	uint64_t head_key;	/* its time in the merge */
	bool has_head;
};

/* What a source keeps of each call besides its record. */
enum kft_source_keep {
	KFT_SOURCE_DEPTH = 1,	/* its logged depth (else every call is at 0) */
	KFT_SOURCE_LOCAL = 2,	/* kd's Local */
	KFT_SOURCE_INHERITED = 4,	/* a fork child's inherited calls too */
};

/* Open th's calls: each call's record, and what keep (KFT_SOURCE_*) asks. */
int kft_source_open(struct kft_source *s, const struct kft_thread_file *th, unsigned int keep,
		    struct kft_error *err);
/* Room for the Locals of s's calls, each set by its place (then set
 * local_ready): 0 or -1. */
int kft_source_want_locals(struct kft_source *s, struct kft_error *err);
/* 0, or -1 with err set after a failed read or write of s's arrays. */
int kft_source_check(const struct kft_source *s, struct kft_error *err);
/* Set the Local (ns, -1: unfinished) of the call at place pos: 0 or -1. */
int kft_source_set_local(struct kft_source *s, uint64_t pos, int64_t local_ns);
/* Take the thread's next call (or stack-watch row) as its head. */
void kft_source_advance(struct kft_source *s);
/* Into dst, before its first advance: the calls of src (opened, not
 * advanced) whose owner[pos] is who, in their order, with their depths
 * and Locals; no stack-watch rows. 0, or -1 with err set. */
int kft_source_subset(struct kft_source *dst, struct kft_source *src,
		      struct kft_spill32 *owner, uint32_t who, struct kft_error *err);
/* Call pos (in entry order) into *c, without moving the head. */
void kft_source_call(const struct kft_source *s, uint64_t pos, struct kft_call *c);
void kft_source_close(struct kft_source *s);

#endif
