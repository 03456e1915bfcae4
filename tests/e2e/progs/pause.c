/* SPDX-License-Identifier: GPL-2.0-only */
/* kft_pause() and kft_resume() around one call: hidden() is not logged,
 * before() and after() are, and main, open across the pause, ends whole. */
#include <stdio.h>

#include "kft.h"

static volatile int sink;

__attribute__((noinline)) static void before(void)
{
	sink++;
}

__attribute__((noinline)) static void hidden(void)
{
	sink += 2;	/* bodies differ: -O2 would fold the three into one */
}

__attribute__((noinline)) static void after(void)
{
	sink += 3;
}

int main(void)
{
	int paused, resumed;

	before();
	paused = kft_pause();
	hidden();
	resumed = kft_resume();
	after();
	/* 0 and 0 under kft record, -1 and -1 without it */
	printf("pause %d resume %d sink %d\n", paused, resumed, sink);
	return 0;
}
