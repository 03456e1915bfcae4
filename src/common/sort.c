// SPDX-License-Identifier: GPL-2.0-only
#include "sort.h"

/*
 * Quicksort: the median of three as pivot, three-way partitions (runs of
 * equal durations are common), the smaller side first by recursion and
 * the larger by looping, so the stack stays within log2(n) frames; short
 * runs by insertion. One body for each element type.
 */
#define DEFINE_SORT(name, type)								\
static void name##_swap(type *a, type *b)						\
{											\
	type t = *a;									\
											\
	*a = *b;									\
	*b = t;										\
}											\
											\
static void name##_insertion(type *v, size_t n)						\
{											\
	for (size_t i = 1; i < n; i++) {						\
		type x = v[i];								\
		size_t j = i;								\
											\
		for (; j && v[j - 1] > x; j--)						\
			v[j] = v[j - 1];						\
		v[j] = x;								\
	}										\
}											\
											\
void name(type *v, size_t n)								\
{											\
	while (n > 16) {								\
		size_t lt = 0, i = 0, gt = n;						\
		type a = v[0], b = v[n / 2], c = v[n - 1], pivot;			\
											\
		pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b); \
		/* v[0..lt) < pivot, v[lt..i) == pivot, v[gt..n) > pivot */		\
		while (i < gt) {							\
			if (v[i] < pivot)						\
				name##_swap(&v[lt++], &v[i++]);				\
			else if (v[i] > pivot)						\
				name##_swap(&v[i], &v[--gt]);				\
			else								\
				i++;							\
		}									\
		if (lt < n - gt) {							\
			name(v, lt);							\
			v += gt;							\
			n -= gt;							\
		} else {								\
			name(v + gt, n - gt);						\
			n = lt;								\
		}									\
	}										\
	name##_insertion(v, n);								\
}

DEFINE_SORT(kft_sort_i64, int64_t)
DEFINE_SORT(kft_sort_u32, uint32_t)
