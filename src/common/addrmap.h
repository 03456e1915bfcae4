/* SPDX-License-Identifier: GPL-2.0-only */
/* A hash map from (process image, address) to a uint32_t (open addressing).
 * An image is a process image's number, with an epoch of its memory map in
 * the upper 32 bits where a library's addresses were reused
 * (symbolizer.h). */
#ifndef KFT_ADDRMAP_H
#define KFT_ADDRMAP_H

#include <stddef.h>
#include <stdint.h>

#define KFT_ADDRMAP_NONE UINT32_MAX

struct kft_addrmap_slot {
	uint64_t addr;
	uint64_t image;		/* stored + 1: 0 marks an empty slot */
	uint32_t value;
};

struct kft_addrmap {
	struct kft_addrmap_slot *tab;
	size_t cap, len;
};

/*
 * The value slot of (image, addr), made holding KFT_ADDRMAP_NONE if new;
 * NULL when out of memory. Valid until the next call.
 */
uint32_t *kft_addrmap_slot(struct kft_addrmap *m, uint64_t image, uint64_t addr);
void kft_addrmap_free(struct kft_addrmap *m);

#endif
