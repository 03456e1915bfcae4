/* SPDX-License-Identifier: GPL-2.0-only */
/* Sorting in place, with no memory of its own (qsort may allocate a copy
 * of the whole array: 8 more bytes a call for a trace's durations). */
#ifndef KFT_SORT_H
#define KFT_SORT_H

#include <stddef.h>
#include <stdint.h>

/* v[0..n) in ascending order. */
void kft_sort_i64(int64_t *v, size_t n);
void kft_sort_u32(uint32_t *v, size_t n);

#endif
