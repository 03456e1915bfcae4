/* SPDX-License-Identifier: GPL-2.0-only */
/* A shared library built without instrumentation (kft record --lib). */
volatile int plainlib_sink;

/* static: named by the library's .symtab, or func_ADDR once stripped */
static __attribute__((noinline)) int lib_twice(int x)
{
	plainlib_sink = x;
	return 2 * x;
}

__attribute__((noinline)) int lib_leaf(int x)
{
	return lib_twice(x) + 1;
}

int lib_sum(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += lib_leaf(i);
	return s;
}
