/* SPDX-License-Identifier: GPL-2.0-only */
/* Named phases with known durations, for triggers and filters. */
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) static void spin_us(long us)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000L + (t.tv_nsec - t0.tv_nsec) / 1000 < us);
}

__attribute__((noinline)) void fast(void) { __asm__ volatile(""); }	/* not pure: the call stays */
static long slow_us = 2000;

__attribute__((noinline)) void slow(void) { spin_us(slow_us); }
__attribute__((noinline)) void medium(void) { spin_us(300); }

__attribute__((noinline)) void work(void)
{
	fast();
	medium();
	slow();
}

static volatile int mark;

/* distinct bodies: alike ones may be merged into one function */
__attribute__((noinline)) void before(void) { mark = 1; fast(); }
__attribute__((noinline)) void after(void) { mark = 2; fast(); }

/* phases [N [TICKS [SLOW_US]]]: before, N x work (default 1), a pause
 * (30 ms, or TICKS calls of 100 usec), after; slow takes SLOW_US (2000) */
int main(int argc, char **argv)
{
	int n = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 1;
	int ticks = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 0;

	if (argc > 3)
		slow_us = strtol(argv[3], NULL, 10);

	before();
	for (int i = 0; i < n; i++)
		work();
	if (ticks)
		for (int i = 0; i < ticks; i++)
			spin_us(100);
	else
		spin_us(30000);
	after();
	return 0;
}
