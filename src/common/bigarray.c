// SPDX-License-Identifier: GPL-2.0-only
#include <sys/mman.h>

#include "bigarray.h"

#define FIRST_BYTES (1UL << 20)

int kft_big_grow(void **items, size_t n, size_t *cap, size_t size)
{
	size_t old = *cap * size, bytes = old ? 2 * old : FIRST_BYTES;
	void *p;

	if (n < *cap)
		return 0;
	while (bytes < (n + 1) * size)
		bytes *= 2;
	p = old ? mremap(*items, old, bytes, MREMAP_MAYMOVE)
		: mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	*items = p;
	*cap = bytes / size;
	return 0;
}

void kft_big_free(void *items, size_t cap, size_t size)
{
	if (items && cap)
		munmap(items, cap * size);
}
