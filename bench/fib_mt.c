/* SPDX-License-Identifier: GPL-2.0-only */
/* Workload (c): T threads (argv[2], default 4), each fib(N) (argv[1]). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int depth;

__attribute__((noinline)) static void *worker(void *arg)
{
	*(long *)arg = fib(depth);
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
	printf("fib(%d) x %d = %ld\n", depth, nthreads, res[0]);
	return 0;
}
