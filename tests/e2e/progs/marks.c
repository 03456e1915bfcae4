/* SPDX-License-Identifier: GPL-2.0-only */
/* Markers (kft_printf, kft_mark) at known places: one inside a(), one in
 * main between a() and b(); none while tracing is paused. */
#include <stdio.h>

#include "kft.h"

static volatile int sink;

__attribute__((noinline)) static void a(void)
{
	sink += 1;
	kft_mark("inside a");
}

__attribute__((noinline)) static void b(int n)
{
	sink += n;
}

int main(void)
{
	int r1, r2, r3;

	a();
	r1 = kft_printf("between, n=%d", 42);
	b(sink);	/* not a constant: -O2 would clone b for one */
	kft_pause();
	r2 = kft_mark("not logged");
	kft_resume();
	r3 = kft_printf("%s", "last");
	/* 0 0 0 under kft record; -1 -1 -1 alone */
	printf("marks %d %d %d sink %d\n", r1, r2, r3, sink);
	return 0;
}
