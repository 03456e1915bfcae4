/* SPDX-License-Identifier: GPL-2.0-only */
/* Four threads calling outer() { inner() } every 200 usec until a file
 * "stop" appears. */
#include <pthread.h>
#include <unistd.h>

static volatile long sink;

__attribute__((noinline)) static void inner(long i) { sink += i; }

__attribute__((noinline)) static void outer(long i)
{
	inner(i);
	inner(i + 1);
}

static void *worker(void *arg)
{
	for (long i = 0; access("stop", F_OK); i++) {
		outer(i);
		usleep(200);
	}
	return arg;
}

int main(void)
{
	pthread_t t[4];

	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}
