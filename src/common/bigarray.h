/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Arrays of a few bytes a call, mapped straight from the kernel: freed,
 * their memory goes back at once (malloc may keep a freed block of many
 * megabytes in its heap, where it still counts as the reader's).
 */
#ifndef KFT_BIGARRAY_H
#define KFT_BIGARRAY_H

#include <stddef.h>

/* Room for n items of size bytes in *items (*cap of them): 0, or -1 when
 * out of memory (*items as it was). */
int kft_big_grow(void **items, size_t n, size_t *cap, size_t size);
void kft_big_free(void *items, size_t cap, size_t size);

#endif
