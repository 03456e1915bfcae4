/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An array of 32-bit values, one a call, that a reader writes and reads
 * in (nearly) sequential order: a large one lives in a region of the
 * process's one temporary file and is seen through a few cached pages, so
 * memory stays a few pages however many calls there are (and one
 * descriptor however many arrays). A small one stays in memory, and so
 * does a large one when no temporary file can be made.
 */
#ifndef KFT_SPILL_H
#define KFT_SPILL_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

#define KFT_SPILL_SLOTS 4

struct kft_spill_slot {
	uint64_t page;		/* UINT64_MAX: empty */
	bool dirty;
	uint32_t *v;		/* taken on first use */
};

struct kft_spill32 {
	uint64_t n;
	uint32_t *mem;		/* a small array: all of it */
	int fd;			/* a large one: the shared file, -1 until then */
	uint64_t base;		/* where its region of the file starts */
	uint8_t *written;	/* pages of the file written out once */
	struct kft_spill_slot slot[KFT_SPILL_SLOTS];
	int error;		/* errno of the first failed read or write */
};

/* n values, each 0 until set: 0, or -1 with err set. */
int kft_spill32_init(struct kft_spill32 *a, uint64_t n, struct kft_error *err);
/* Value i (i < n): 0, or -1 when the file could not be written. */
int kft_spill32_set(struct kft_spill32 *a, uint64_t i, uint32_t v);
/* Value i (i < n); 0 when the file could not be read (a->error says). */
uint32_t kft_spill32_get(struct kft_spill32 *a, uint64_t i);
/* 0, or -1 with err set after a failed read or write. */
int kft_spill32_check(const struct kft_spill32 *a, struct kft_error *err);
void kft_spill32_free(struct kft_spill32 *a);

/*
 * A list of 32-bit values of a length not known ahead, appended to, then
 * read in order as often as wanted: the first few thousand in memory,
 * then blocks of them in regions of the same temporary file, one block in
 * memory (memory again when no temporary file can be made).
 */
struct kft_spill_list {
	uint64_t n;
	uint32_t *buf;		/* the values after the blocks written out */
	size_t cap;
	uint64_t *blocks;	/* where each block of KFT_SPILL_RUN starts */
	size_t nblocks, capblocks;
	bool memory;		/* no more blocks: the file failed */
	int error;		/* errno of a failed read */
};

/* One more value (a zeroed list is empty): 0, or -1 when out of memory. */
int kft_spill_list_add(struct kft_spill_list *l, uint32_t v);
/* Every value in order, a run at a time (scratch: room for
 * KFT_SPILL_RUN values, or NULL if l is in memory): 0, or -1 when the
 * file could not be read (kft_spill_list_check says). */
#define KFT_SPILL_RUN 4096u
int kft_spill_list_each(struct kft_spill_list *l, uint32_t *scratch,
			void (*fn)(void *ctx, const uint32_t *v, size_t n), void *ctx);
/* Whether l is in memory (buf holds its n values). */
static inline bool kft_spill_list_in_memory(const struct kft_spill_list *l)
{
	return !l->nblocks;
}
int kft_spill_list_check(const struct kft_spill_list *l, struct kft_error *err);
void kft_spill_list_free(struct kft_spill_list *l);

#endif
