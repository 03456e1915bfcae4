/* SPDX-License-Identifier: GPL-2.0-only */
/* Calls enough to fill a small disk: 8 threads, each 200000 calls of leaf
 * and now and then a chain 300 deep; prints "done" and exits 3. */
#include <pthread.h>
#include <stdio.h>

static volatile long sink;

__attribute__((noinline)) static void leaf(long i) { sink += i; }

__attribute__((noinline)) static void deep(int n)
{
	if (n)
		deep(n - 1);
	else
		leaf(n);
}

static void *work(void *arg)
{
	for (long i = 0; i < 200000; i++) {
		leaf(i);
		if (!(i % 1000))
			deep(300);
	}
	return arg;
}

int main(void)
{
	pthread_t t[8];

	for (int i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, work, NULL);
	for (int i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	puts("done");
	return 3;
}
