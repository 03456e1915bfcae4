/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Calls go on after the run ends, from two threads: in a patchable build
 * the entries become NOPs again while the second thread runs through
 * them. With "bytes", prints what the first byte of spin() holds while
 * the run is on and once it is over (waiting up to 5 s for the change).
 * Its own SIGTRAP handler still gets its own trap at the end.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static volatile int stop, sink;

__attribute__((noinline)) static int spin(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) static void phase(void)
{
	sink = spin(1);
}

static void *worker(void *arg)
{
	volatile int s = 0;

	(void)arg;
	while (!stop)
		s = spin(s);
	return NULL;
}

static volatile sig_atomic_t trapped;

static void on_trap(int sig)
{
	(void)sig;
	trapped = 1;
}

static const char *entry(void)
{
	return *(volatile unsigned char *)(void *)spin == 0xe8 ? "call" : "nop";
}

int main(int argc, char **argv)
{
	int bytes = argc > 1 && !strcmp(argv[1], "bytes");
	struct timespec ms = { 0, 1000000 };
	pthread_t th;

	signal(SIGTRAP, on_trap);
	if (bytes)
		printf("during: %s\n", entry());
	pthread_create(&th, NULL, worker, NULL);
	nanosleep(&ms, NULL);
	phase();	/* the run stops as it returns */
	for (int i = 0; bytes && i < 5000 && !strcmp(entry(), "call"); i++)
		nanosleep(&ms, NULL);
	if (bytes)
		printf("after: %s\n", entry());
	for (int i = 0; i < 1000000; i++)
		sink = spin(i);
	stop = 1;
	pthread_join(th, NULL);
	raise(SIGTRAP);
	printf("own trap: %s\n", trapped ? "handled" : "missed");
	return 0;
}
