/* SPDX-License-Identifier: GPL-2.0-only */
/* A program that traces itself (kft embed): a constructor's call, then
 * main's. */
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) static void early(void)
{
	sink += 1;
}

__attribute__((constructor)) static void setup(void)
{
	early();
}

__attribute__((noinline)) static void work(int n)
{
	sink += n + 1;
}

int main(void)
{
	for (int i = 0; i < 3; i++)
		work(i);
	printf("sink %d\n", sink);
	return 0;
}
