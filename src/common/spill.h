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

#endif
