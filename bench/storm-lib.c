// SPDX-License-Identifier: GPL-2.0-only
/* The library storm dlopens opens and closes again: a call that makes
 * CALLS calls, so that each opening is traced while it is open. */
static volatile long sink;

__attribute__((noinline)) static void lib_leaf(long i)
{
	sink += i;
}

void storm_lib_work(long n)
{
	for (long i = 0; i < n; i++)
		lib_leaf(i);
}
