/* SPDX-License-Identifier: GPL-2.0-only */
/* Workload (c): T threads (argv[2], default 4), each fib(N) (argv[1]). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "work-time.h"

__attribute__((noinline)) static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int depth;
static long long work_ns;	/* all threads' fib time */

__attribute__((noinline)) static void *worker(void *arg)
{
	long long t0, t1;

	WORK_NOW(t0);
	*(long *)arg = fib(depth);
	WORK_NOW(t1);
	__atomic_add_fetch(&work_ns, t1 - t0, __ATOMIC_RELAXED);
	return NULL;
}

int main(int argc, char **argv)
{
	int nthreads = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 4;
	pthread_t t[64];
	long res[64];

	depth = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 28;
	if (nthreads < 1 || nthreads > 64)
		return 2;
	for (int i = 0; i < nthreads; i++)
		pthread_create(&t[i], NULL, worker, &res[i]);
	for (int i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	WORK_REPORT(work_ns);
	printf("fib(%d) x %d = %ld\n", depth, nthreads, res[0]);
	return 0;
}
