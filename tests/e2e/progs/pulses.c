/* SPDX-License-Identifier: GPL-2.0-only */
/* pulses ROUNDS N [wait [MS]]: ROUNDS times, N calls of leaf(), then
 * (with "wait") a wait for the file go-R (R counts the rounds from 1), so
 * that a reader can keep up with a small ring that goes round many
 * times; then, with MS, one call of slow() that takes MS milliseconds. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile long sink;

__attribute__((noinline)) static void leaf(long i)
{
	sink += i;
}

__attribute__((noinline)) static void pulse(long n)
{
	for (long i = 0; i < n; i++)
		leaf(i);
}

__attribute__((noinline)) static void slow(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000 };

	/* (a -pg build's profiling timer counts every thread's CPU time,
	 * kft's helper's too: its SIGPROF may end the sleep early) */
	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 8, n = argc > 2 ? atol(argv[2]) : 3000;
	int wait = argc > 3 && !strcmp(argv[3], "wait");
	struct timespec nap = { 0, 10 * 1000000 };
	char go[32];

	for (long r = 1; r <= rounds; r++) {
		pulse(n);
		snprintf(go, sizeof(go), "go-%ld", r);
		for (int i = 0; wait && i < 3000 && access(go, F_OK); i++)
			nanosleep(&nap, NULL);
	}
	if (argc > 4)
		slow(atol(argv[4]));
	return 0;
}
