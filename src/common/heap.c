// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "heap.h"

static void swap(char *a, char *b, size_t size)
{
	char tmp[256];

	memcpy(tmp, a, size);
	memcpy(a, b, size);
	memcpy(b, tmp, size);
}

void kft_heap_down(void *items, size_t n, size_t size, size_t i, kft_heap_before before,
		   void *ctx)
{
	char *base = items;

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < n && before(base + l * size, base + m * size, ctx))
			m = l;
		if (r < n && before(base + r * size, base + m * size, ctx))
			m = r;
		if (m == i)
			return;
		swap(base + i * size, base + m * size, size);
		i = m;
	}
}

void kft_heap_up(void *items, size_t size, size_t i, kft_heap_before before, void *ctx)
{
	char *base = items;

	while (i && before(base + i * size, base + (i - 1) / 2 * size, ctx)) {
		swap(base + i * size, base + (i - 1) / 2 * size, size);
		i = (i - 1) / 2;
	}
}

void kft_heap_make(void *items, size_t n, size_t size, kft_heap_before before, void *ctx)
{
	for (size_t i = n / 2; i-- > 0;)
		kft_heap_down(items, n, size, i, before, ctx);
}
