/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A tick every 2 ms, 50 of them; before the 30th, a "co-processor reset"
 * holds the thread for 30 ms, so that one interval is at least 32 ms, as
 * in KPTrace's article. nap() sleeps 5 ms, once.
 */
#include <time.h>

static volatile int sink;

static void sleep_us(long us)
{
	struct timespec t = { 0, us * 1000 };

	nanosleep(&t, NULL);
}

__attribute__((noinline)) void tick(void) { sink++; }
__attribute__((noinline)) void reset_coprocessor(void) { sleep_us(30000); }
__attribute__((noinline)) void nap(void) { sleep_us(5000); }

__attribute__((noinline)) void run(void)
{
	for (int i = 0; i < 50; i++) {
		if (i == 29)
			reset_coprocessor();
		sleep_us(2000);
		tick();
	}
}

int main(void)
{
	nap();
	run();
	return 0;
}
