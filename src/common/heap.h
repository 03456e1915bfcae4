/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Binary heaps over arrays of any element type: the element that comes
 * first, as before() orders them, is kept at index 0.
 */
#ifndef KFT_HEAP_H
#define KFT_HEAP_H

#include <stdbool.h>
#include <stddef.h>

typedef bool (*kft_heap_before)(const void *a, const void *b, void *ctx);

/* Move items[i] down to its place among the n items (elements of size
 * bytes, at most 256). */
void kft_heap_down(void *items, size_t n, size_t size, size_t i, kft_heap_before before,
		   void *ctx);
/* Move items[i] up to its place. */
void kft_heap_up(void *items, size_t size, size_t i, kft_heap_before before, void *ctx);
/* Order n items into a heap. */
void kft_heap_make(void *items, size_t n, size_t size, kft_heap_before before, void *ctx);

#endif
