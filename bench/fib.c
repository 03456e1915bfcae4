/* SPDX-License-Identifier: GPL-2.0-only */
/* Workload (a): tiny functions. fib(N) makes 2*fib(N+1)-1 calls. */
#include <stdio.h>
#include <stdlib.h>

#include "work-time.h"

__attribute__((noinline)) static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 32;
	long long t0, t1;
	long r;

	WORK_NOW(t0);
	r = fib(n);
	WORK_NOW(t1);
	WORK_REPORT(t1 - t0);
	printf("fib(%d) = %ld\n", n, r);
	return 0;
}
