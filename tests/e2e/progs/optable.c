// SPDX-License-Identifier: GPL-2.0-only
/* Functions reached only through a table of pointers: built without PIE
 * and stripped, nothing in the file says they are functions but their
 * unwind table's entries (no relocation names them). */
#include <stdio.h>

__attribute__((noinline)) int add(int a, int b) { return a + b; }
__attribute__((noinline)) int mul(int a, int b) { return a * b; }
__attribute__((noinline)) int sub(int a, int b) { return a - b; }

int (*const ops[])(int, int) = { add, mul, sub };

int main(int argc, char **argv)
{
	int r = 0;

	(void)argv;
	for (int i = 0; i < 30; i++)
		r += ops[(i + argc) % 3](i, r & 7);
	printf("%d\n", r);
	return 0;
}
