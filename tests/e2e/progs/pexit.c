/* SPDX-License-Identifier: GPL-2.0-only */
/* A thread leaves by pthread_exit from three calls deep. */
#include <pthread.h>
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) static void leave(void)
{
	pthread_exit(NULL);
}

__attribute__((noinline)) static void inner(void)
{
	leave();
	sink = sink + 1;
}

__attribute__((noinline)) static void outer(void)
{
	inner();
	sink = sink + 1;
}

__attribute__((noinline)) static void *worker(void *arg)
{
	(void)arg;
	outer();
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	puts("joined");
	return 0;
}
