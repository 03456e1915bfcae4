/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One function called from 5,000 distinct call sites, by main and then by
 * three threads: each thread's table of (function, call site) pairs grows
 * through every doubling up to 8,192 entries.
 */
#include <pthread.h>
#include <stdio.h>

static int sink;

__attribute__((noinline)) void f(void) { __atomic_fetch_add(&sink, 1, __ATOMIC_RELAXED); }

#define C10 f(); f(); f(); f(); f(); f(); f(); f(); f(); f();
#define C100 C10 C10 C10 C10 C10 C10 C10 C10 C10 C10
#define C1000 C100 C100 C100 C100 C100 C100 C100 C100 C100 C100

__attribute__((noinline)) void many(void) { C1000 C1000 C1000 C1000 C1000 }

__attribute__((noinline)) void *worker(void *arg)
{
	many();
	return arg;
}

int main(void)
{
	pthread_t th[3];

	many();
	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, worker, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	printf("%d\n", sink);
	return 0;
}
