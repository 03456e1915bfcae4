/* SPDX-License-Identifier: GPL-2.0-only */
/* Four threads, each its own stream of calls. */
#include <pthread.h>
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) static void step(int i)
{
	sink += i;
}

__attribute__((noinline)) static void *worker(void *arg)
{
	for (int i = 0; i < 1000; i++)
		step(i);
	return arg;
}

int main(void)
{
	pthread_t t[4];

	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	puts("done");
	return 0;
}
