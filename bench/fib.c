/* SPDX-License-Identifier: GPL-2.0-only */
/* Workload (a): tiny functions. fib(N) makes 2*fib(N+1)-1 calls. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 32;

	printf("fib(%d) = %ld\n", n, fib(n));
	return 0;
}
