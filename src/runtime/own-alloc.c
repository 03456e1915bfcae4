// SPDX-License-Identifier: LGPL-2.1
/*
 * The runtime's own memory (own-alloc.h): blocks of 16 bytes to 64 KiB
 * by powers of two, each size kept on a list of its own when freed and
 * cut from 1 MiB regions mapped as needed; larger ones mapped whole. A
 * block's size class is in the 16 bytes before it. One lock: the runtime
 * allocates while it starts, when a thread or a library comes, when it
 * reads its config; never on a hook's common path.
 */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime.h"

#undef malloc
#undef calloc
#undef realloc
#undef free
#undef strdup
#undef strndup
#undef qsort
#undef qsort_r

#define HEADER 16
#define MIN_SHIFT 4			/* 16 bytes */
#define MAX_SHIFT 16			/* 64 KiB */
#define REGION (1 << 20)
#define BIG UINT64_MAX			/* a block mapped on its own */

struct header {
	uint64_t size;			/* the class's, or the mapping's (BIG) */
	uint64_t big;			/* BIG, or 0 */
};

struct free_block {
	struct free_block *next;
};

static struct free_block *lists[MAX_SHIFT + 1];
static char *region, *region_end;
static int lock;

static KFT_NOTRACE void take(void)
{
	while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&lock, __ATOMIC_RELAXED))
			__builtin_ia32_pause();
}

static KFT_NOTRACE void give(void)
{
	__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
}

KFT_NOTRACE void kft_own_alloc_forked(void)
{
	lock = 0;
}

static KFT_NOTRACE unsigned int class_of(size_t n)
{
	unsigned int shift = MIN_SHIFT;

	while (((size_t)1 << shift) < n)
		shift++;
	return shift;
}

static KFT_NOTRACE void *map(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

KFT_NOTRACE void *kft_own_malloc(size_t n)
{
	struct header *h;
	unsigned int shift;
	size_t len;

	if (n > ((size_t)1 << MAX_SHIFT)) {
		if (n > SIZE_MAX / 2)
			return NULL;
		len = (n + HEADER + 4095) & ~(size_t)4095;
		h = map(len);
		if (!h)
			return NULL;
		h->size = len;
		h->big = BIG;
		return (char *)h + HEADER;
	}
	shift = class_of(n);
	len = ((size_t)1 << shift) + HEADER;
	take();
	if (lists[shift]) {
		h = (struct header *)((char *)lists[shift] - HEADER);
		lists[shift] = lists[shift]->next;
	} else {
		if (!region || (size_t)(region_end - region) < len) {
			/* (the rest of the old region is left: at most 64 KiB) */
			region = map(REGION);
			region_end = region ? region + REGION : NULL;
		}
		if (!region) {
			give();
			return NULL;
		}
		h = (struct header *)region;
		region += len;
	}
	give();
	h->size = shift;
	h->big = 0;
	return (char *)h + HEADER;
}

KFT_NOTRACE void kft_own_free(void *p)
{
	struct header *h;
	struct free_block *b = p;

	if (!p)
		return;
	h = (struct header *)((char *)p - HEADER);
	if (h->big == BIG) {
		munmap(h, h->size);
		return;
	}
	take();
	b->next = lists[h->size];
	lists[h->size] = b;
	give();
}

KFT_NOTRACE void *kft_own_calloc(size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	p = kft_own_malloc(n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

KFT_NOTRACE void *kft_own_realloc(void *p, size_t n)
{
	struct header *h;
	size_t had;
	void *q;

	if (!p)
		return kft_own_malloc(n);
	h = (struct header *)((char *)p - HEADER);
	had = h->big == BIG ? h->size - HEADER : (size_t)1 << h->size;
	if (n <= had && (h->big == BIG || n > had / 2 || h->size == MIN_SHIFT))
		return p;
	q = kft_own_malloc(n);
	if (!q)
		return NULL;
	memcpy(q, p, n < had ? n : had);
	kft_own_free(p);
	return q;
}

static KFT_NOTRACE char *copy(const char *s, size_t len)
{
	char *d = kft_own_malloc(len + 1);

	if (d) {
		memcpy(d, s, len);
		d[len] = '\0';
	}
	return d;
}

KFT_NOTRACE char *kft_own_strndup(const char *s, size_t n)
{
	return copy(s, strnlen(s, n));
}

KFT_NOTRACE char *kft_own_strdup(const char *s)
{
	return copy(s, strlen(s));
}

/* ---- sorting ------------------------------------------------------------ */

static KFT_NOTRACE void swap(char *a, char *b, size_t size)
{
	while (size--) {
		char c = *a;

		*a++ = *b;
		*b++ = c;
	}
}

static KFT_NOTRACE void sift_down(char *v, size_t i, size_t n, size_t size,
				  int (*cmp)(const void *, const void *, void *), void *arg)
{
	for (;;) {
		size_t big = i, l = 2 * i + 1, r = l + 1;

		if (l < n && cmp(v + l * size, v + big * size, arg) > 0)
			big = l;
		if (r < n && cmp(v + r * size, v + big * size, arg) > 0)
			big = r;
		if (big == i)
			return;
		swap(v + i * size, v + big * size, size);
		i = big;
	}
}

/* v[0, n) sorted stably through tmp (room for n): merges of runs that
 * double, as the C library's qsort does, so that equal elements keep
 * their order (publish_args merges them in it) */
static KFT_NOTRACE void merge_sort(char *v, char *tmp, size_t n, size_t size,
				   int (*cmp)(const void *, const void *, void *), void *arg)
{
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t a = lo, b = mid, k = lo;

			while (a < mid || b < hi) {
				size_t from = b >= hi || (a < mid && cmp(v + a * size, v + b * size, arg) <= 0)
						      ? a++ : b++;

				memcpy(tmp + k++ * size, v + from * size, size);
			}
		}
		memcpy(v, tmp, n * size);
	}
}

KFT_NOTRACE void kft_own_qsort_r(void *base, size_t n, size_t size,
				 int (*cmp)(const void *, const void *, void *), void *arg)
{
	char *v = base, *tmp;

	if (n < 2)
		return;
	if (n <= SIZE_MAX / size && (tmp = kft_own_malloc(n * size))) {
		merge_sort(v, tmp, n, size, cmp, arg);
		kft_own_free(tmp);
		return;
	}
	/* (no memory for the copy: a heapsort, in place) */
	for (size_t i = n / 2; i-- > 0;)
		sift_down(v, i, n, size, cmp, arg);
	for (size_t end = n - 1; end > 0; end--) {
		swap(v, v + end * size, size);
		sift_down(v, 0, end, size, cmp, arg);
	}
}

static KFT_NOTRACE int plain_cmp(const void *a, const void *b, void *arg)
{
	return ((int (*)(const void *, const void *))arg)(a, b);
}

KFT_NOTRACE void kft_own_qsort(void *v, size_t n, size_t size,
			       int (*cmp)(const void *, const void *))
{
	kft_own_qsort_r(v, n, size, plain_cmp, (void *)cmp);
}
