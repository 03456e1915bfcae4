/* SPDX-License-Identifier: GPL-2.0-only */
/* A program with its own (instrumented) allocator: kft's runtime, which
 * allocates while it starts, must not lose the program's calls to it. */
#include <stdio.h>
#include <string.h>

static char pool[1 << 24];
static size_t used;

void *malloc(size_t n)
{
	void *p = pool + used;

	used += (n + 15) & ~(size_t)15;
	return p;
}

void free(void *p)
{
	(void)p;
}

void *calloc(size_t a, size_t b)
{
	void *p = malloc(a * b);

	memset(p, 0, a * b);
	return p;
}

void *realloc(void *old, size_t n)
{
	void *p = malloc(n);

	if (old)
		memcpy(p, old, n);
	return p;
}

static volatile int sink;

__attribute__((noinline)) static int work(int x)
{
	sink = x;	/* not pure: the call stays */
	return sink * 2;
}

int main(void)
{
	char *s = malloc(10);

	s[0] = 0;
	printf("%d\n", work(3));
	return 0;
}
