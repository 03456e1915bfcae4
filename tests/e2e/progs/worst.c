/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A handler whose calls take 1 ms, but the 4th 5 ms and the 11th 20 ms,
 * each longer than all before, with 200 ms after the 4th for kft to see
 * it before the 11th comes; after the 11th the program writes ./half
 * and waits for ./go, so that the worst can be read while it runs. Then
 * 29 more calls (some of 5 ms), each followed by 3000 short calls of
 * filler(), so that a small ring forgets the worst call long before the
 * end. A second thread calls other() every 2 ms all along.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static volatile int sink, done;

static void sleep_us(long us)
{
	struct timespec t = { us / 1000000, (us % 1000000) * 1000 };

	/* (a -pg build's profiling timer counts every thread's CPU time,
	 * kft's helper's too: its SIGPROF may end the sleep early) */
	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

__attribute__((noinline)) void filler(void) { sink++; }
__attribute__((noinline)) void other(void) { sink += 2; }
__attribute__((noinline)) void handle(long us) { sleep_us(us); }

static void *side(void *arg)
{
	(void)arg;
	while (!done) {
		other();
		sleep_us(2000);
	}
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, side, NULL);
	for (int i = 0; i < 40; i++) {
		handle(i == 10 ? 20000 : i % 7 == 3 ? 5000 : 1000);
		for (int k = 0; k < (i > 10 ? 3000 : 0); k++)
			filler();
		if (i == 3)
			sleep_us(200000);
		if (i == 10) {
			FILE *f = fopen("half", "w");

			if (f)
				fclose(f);
			while (access("go", F_OK))
				sleep_us(1000);
		}
	}
	done = 1;
	pthread_join(t, NULL);
	printf("sink %d\n", sink > 0);
	return 0;
}
