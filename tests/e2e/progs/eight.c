/* SPDX-License-Identifier: GPL-2.0-only */
/* 8 threads, each calling leaf() argv[1] times (default a million). */
#include <pthread.h>
#include <stdlib.h>

static long calls = 1000000;
static volatile long sink;

__attribute__((noinline)) static void leaf(long i) { sink += i; }

static void *worker(void *arg)
{
	for (long i = 0; i < calls; i++)
		leaf(i);
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t[8];

	if (argc > 1)
		calls = atol(argv[1]);
	for (int i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	return 0;
}
