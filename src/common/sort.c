// SPDX-License-Identifier: GPL-2.0-only
#include "sort.h"

static void swap(int64_t *a, int64_t *b)
{
	int64_t t = *a;

	*a = *b;
	*b = t;
}

static void insertion(int64_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		int64_t x = v[i];
		size_t j = i;

		for (; j && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/*
 * Quicksort: the median of three as pivot, three-way partitions (runs of
 * equal durations are common), the smaller side first by recursion and
 * the larger by looping, so the stack stays within log2(n) frames.
 */
void kft_sort_i64(int64_t *v, size_t n)
{
	while (n > 16) {
		size_t lt = 0, i = 0, gt = n;
		int64_t a = v[0], b = v[n / 2], c = v[n - 1], pivot;

		pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
		/* v[0..lt) < pivot, v[lt..i) == pivot, v[gt..n) > pivot */
		while (i < gt) {
			if (v[i] < pivot)
				swap(&v[lt++], &v[i++]);
			else if (v[i] > pivot)
				swap(&v[i], &v[--gt]);
			else
				i++;
		}
		if (lt < n - gt) {
			kft_sort_i64(v, lt);
			v += gt;
			n -= gt;
		} else {
			kft_sort_i64(v + gt, n - gt);
			n = lt;
		}
	}
	insertion(v, n);
}
