/* SPDX-License-Identifier: GPL-2.0-only */
/* A fixed call tree: exact counts and nesting. */
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) static void leaf(int i)
{
	sink += i;
}

__attribute__((noinline)) static void middle(int n)
{
	for (int i = 0; i < n; i++)
		leaf(i);
}

__attribute__((noinline)) static int top(void)
{
	middle(2);
	leaf(7);
	middle(1);
	return sink;
}

int main(int argc, char **argv)
{
	printf("sink %d\n", top());
	return argc > 1 ? 3 : 0;
}
