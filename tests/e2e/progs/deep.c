/* SPDX-License-Identifier: GPL-2.0-only */
/* Recursion N levels deep (default 100000). */
#include <stdlib.h>

__attribute__((noinline)) static long down(long n)
{
	volatile long pad = n;

	return n ? down(n - 1) + (pad & 1) : 0;
}

int main(int argc, char **argv)
{
	return down(argc > 1 ? strtol(argv[1], NULL, 10) : 100000) > 0 ? 0 : 1;
}
