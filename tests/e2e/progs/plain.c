/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Built with no instrumentation flag, for kft record's entry patching:
 * recursion, a loop of calls, a function that begins with a short branch
 * and one that reads a global through a RIP-relative operand, a tail
 * call, a longjmp past traced frames; the callers keep values in
 * registers across calls the compiler knows leave them alone (gcc's
 * -fipa-ra), which the patched entries and exits must keep too. The
 * program checks its own results.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *word = "patched";
static jmp_buf back;
static volatile int sink;

__attribute__((noinline)) static int leaf(int x) { return x * 3 + 1; }

__attribute__((noinline)) static int loop(int n)
{
	int s = 0;

	if (n <= 0)	/* a short branch first */
		return -1;
	for (int i = 0; i < n; i++)
		s += leaf(i);
	return s;
}

__attribute__((noinline)) static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__attribute__((noinline)) static size_t rip(void) { return strlen(word); }

__attribute__((noinline)) static int tail(int n) { return leaf(n + sink); }

__attribute__((noinline)) static void deep(int n)
{
	if (!n) {
		if (sink >= 0)
			longjmp(back, 1);
		return;
	}
	deep(n - 1);
	sink++;
}

__attribute__((noinline)) static int jumper(void)
{
	if (!setjmp(back)) {
		deep(3);
		return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 6;
	int a = loop(n), b = loop(0), t = tail(n), j = jumper();
	long f = fib(n);
	size_t r = rip();

	printf("loop %d %d fib %ld rip %zu tail %d jump %d\n", a, b, f, r, t, j);
	return a == 51 && b == -1 && f == 8 && r == 7 && t == 19 && j == 1 ? 0 : 1;
}
