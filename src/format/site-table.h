/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The table of call sites a thread file's records name: (function, call
 * site) pairs, numbered in the order they first ended a call, with an
 * open-addressing hash index for the writer. The sites live in the thread
 * file; the index is the writer's own memory (the runtime's grows, from
 * outside the hot path). A site is complete before the count that makes
 * it valid, and the count before any record that names it, so a crash
 * leaves a consistent table.
 *
 * Each index slot holds its pair beside the id, so that finding a site
 * (every call's end does) is one load from one cache line, and the slot
 * comes from a few shifts: this is the hooks' hottest lookup.
 */
#ifndef KFT_SITE_TABLE_H
#define KFT_SITE_TABLE_H

#include <stdint.h>

#include "trace-format.h"

#define KFT_SITE_NONE UINT32_MAX	/* the table or its index is full */

struct kft_site_slot {
	uint64_t call_site;
	uint64_t func;
	uint64_t id1;			/* site id + 1, or 0: a free slot */
};

struct kft_site_table {
	struct kft_site *sites;		/* [cap] */
	uint64_t *nsites;		/* the valid sites' count, in the header */
	uint32_t cap;			/* at most KFT_SITE_MAX + 1 */
	uint32_t nslots;		/* a power of two */
	struct kft_site_slot *index;	/* [nslots] */
};

/* Bytes an index of nslots takes. */
#define KFT_SITE_INDEX_BYTES(nslots) ((size_t)(nslots) * sizeof(struct kft_site_slot))

static inline KFT_NOTRACE uint32_t kft_site_slot(const struct kft_site_table *t,
						 uint64_t func, uint64_t call_site)
{
	/* one shift, not a multiply: the slot is on every call's critical
	 * path. Call sites differ in their low bits and objects from bit 12
	 * up; a call site seldom calls more than one function (an indirect
	 * call's pairs only probe further) */
	(void)func;
	return (uint32_t)(call_site ^ (call_site >> 12)) & (t->nslots - 1);
}

/* Index sites[0..*nsites) into index[nslots] (zeroed), for a new index. */
static inline KFT_NOTRACE void kft_site_reindex(struct kft_site_table *t,
						struct kft_site_slot *index, uint32_t nslots)
{
	t->index = index;
	t->nslots = nslots;
	for (uint64_t i = 0; i < *t->nsites; i++) {
		uint32_t slot = kft_site_slot(t, t->sites[i].func, t->sites[i].call_site);

		while (index[slot].id1)
			slot = (slot + 1) & (nslots - 1);
		index[slot].call_site = t->sites[i].call_site;
		index[slot].func = t->sites[i].func;
		index[slot].id1 = i + 1;
	}
}

/* Whether one more site fits: in the table, and in the index, which stays
 * at most half full so that every probe ends. */
static inline KFT_NOTRACE int kft_site_fits(const struct kft_site_table *t)
{
	uint64_t n = *t->nsites;

	return n < t->cap && 2 * (n + 1) <= t->nslots;
}

/*
 * The sizes t must grow to before one more site fits: *cap (at most
 * max_cap) and *nslots, each either as it is or doubled as often as
 * needed. Both may have to grow at once (the table and its index fill at
 * different counts), and the caller grows both before it tries again.
 * 0, or -1 when the table already holds max_cap sites.
 */
static inline KFT_NOTRACE int kft_site_grow_plan(const struct kft_site_table *t,
						 uint32_t max_cap, uint32_t *cap,
						 uint32_t *nslots)
{
	uint64_t n = *t->nsites;

	*cap = t->cap;
	*nslots = t->nslots;
	if (n >= *cap) {
		if (*cap >= max_cap)
			return -1;
		*cap = *cap <= max_cap / 2 ? 2 * *cap : max_cap;
	}
	while (2 * (n + 1) > *nslots)
		*nslots *= 2;
	return 0;
}

static __attribute__((noinline, cold, unused)) KFT_NOTRACE uint32_t
kft_site_add(struct kft_site_table *t, uint32_t slot, uint64_t func, uint64_t call_site)
{
	uint64_t n = *t->nsites;

	if (!kft_site_fits(t))
		return KFT_SITE_NONE;
	t->sites[n].func = func;
	t->sites[n].call_site = call_site;
	__atomic_store_n(t->nsites, n + 1, __ATOMIC_RELEASE);
	t->index[slot].call_site = call_site;
	t->index[slot].func = func;
	t->index[slot].id1 = n + 1;
	return (uint32_t)n;
}

/* The index slot of (func, call_site), or the free slot where it would go. */
static inline KFT_NOTRACE uint32_t kft_site_probe(const struct kft_site_table *t, uint64_t func,
						  uint64_t call_site)
{
	uint32_t slot = kft_site_slot(t, func, call_site);

	for (;;) {
		const struct kft_site_slot *s = &t->index[slot];

		if (!s->id1 || (s->call_site == call_site && s->func == func))
			return slot;
		slot = (slot + 1) & (t->nslots - 1);
	}
}

/* The id of (func, call_site) if the table has it, else KFT_SITE_NONE. */
static inline KFT_NOTRACE uint32_t kft_site_find(const struct kft_site_table *t, uint64_t func,
						 uint64_t call_site)
{
	/* (a free slot's id1 is 0: KFT_SITE_NONE) */
	return (uint32_t)(t->index[kft_site_probe(t, func, call_site)].id1 - 1);
}

/* The id of (func, call_site), added if it is new; KFT_SITE_NONE when the
 * table is full, or its index is and must grow first. */
static inline KFT_NOTRACE uint32_t kft_site_id(struct kft_site_table *t, uint64_t func,
					       uint64_t call_site)
{
	uint32_t slot = kft_site_probe(t, func, call_site);

	if (t->index[slot].id1)
		return (uint32_t)(t->index[slot].id1 - 1);
	return kft_site_add(t, slot, func, call_site);
}

#endif
