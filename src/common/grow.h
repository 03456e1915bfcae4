/* SPDX-License-Identifier: GPL-2.0-only */
/* Arrays that double as they fill. */
#ifndef KFT_GROW_H
#define KFT_GROW_H

#include <stddef.h>
#include <stdlib.h>

/*
 * Room for one more of n items of size bytes in *items (*cap of them),
 * doubling from first: 0, or -1 when out of memory (*items as it was).
 * items is the address of the array's pointer, as (void **)&array.
 */
static inline int kft_grow(void **items, size_t n, size_t *cap, size_t size, size_t first)
{
	size_t more = *cap ? 2 * *cap : first;
	void *bigger;

	if (n < *cap)
		return 0;
	bigger = realloc(*items, more * size);
	if (!bigger)
		return -1;
	*items = bigger;
	*cap = more;
	return 0;
}

#endif
