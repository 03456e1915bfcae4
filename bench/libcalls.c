/* SPDX-License-Identifier: GPL-2.0-only */
/* Workload (library calls): N calls of strlen through the PLT (built with
 * -fno-builtin, so the compiler keeps every one), from one function. */
#include <stdlib.h>
#include <string.h>

static volatile size_t sink;

__attribute__((noinline)) void work(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		sink += strlen(s + (i & 3));
}

int main(int argc, char **argv)
{
	work(argv[0], argc > 1 ? atoi(argv[1]) : 1000000);
	return 0;
}
