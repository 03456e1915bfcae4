/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A GNU C nested function, called through a pointer: gcc passes it its
 * parent's frame in r10 (the static chain), and with -pg -mfentry keeps
 * r10 on the stack around the call to __fentry__.
 */
#include <stdio.h>

__attribute__((noinline)) static int apply(int (*f)(int), int x)
{
	return f(x);
}

int main(void)
{
	int base = 10, sum = 0;

	int add(int v)
	{
		return v + base;
	}

	for (int i = 0; i < 3; i++)
		sum += apply(add, i);
	printf("%d\n", sum);
	return 0;
}
