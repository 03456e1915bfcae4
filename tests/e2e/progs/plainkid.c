// SPDX-License-Identifier: GPL-2.0-only
/* A program built without instrumentation, started by another: leaf
 * runs as many times as argv[1] says, under work. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int leaf(int i)
{
	return i * 2;
}

__attribute__((noinline)) int work(int n)
{
	int r = 0;

	for (int i = 0; i < n; i++)
		r += leaf(i);
	return r;
}

int main(int argc, char **argv)
{
	printf("%d\n", work(argc > 1 ? atoi(argv[1]) : 0));
	return 0;
}
