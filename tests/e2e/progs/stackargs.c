/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Arguments passed on the stack (x86-64: a 7th integer, a 9th
 * floating-point one, a struct too big for registers), each function
 * called through a volatile pointer so that the optimizer keeps their
 * calling convention; each result printed, for the trace to match.
 */
#include <stdio.h>

struct big {
	long a[4];
};

__attribute__((noinline)) long eight(int a, int b, int c, int d, int e, int f, int g, long h)
{
	return a + b + c + d + e + f + g + h;
}

__attribute__((noinline)) double nine(double a, double b, double c, double d, double e, double f,
				      double g, double h, double i)
{
	return a + b + c + d + e + f + g + h + i;
}

__attribute__((noinline)) long mixed_stack(int a, int b, int c, int d, int e, int f, const char *g,
					   double x, unsigned char h)
{
	return a + b + c + d + e + f + (long)g[0] + (long)x + h;
}

/* a struct in memory first: the words after it are not certain */
__attribute__((noinline)) long after_big(struct big s, int a, int b, int c, int d, int e, int f,
					 int g)
{
	return s.a[0] + s.a[3] + a + b + c + d + e + f + g;
}

static long (*volatile eight_p)(int, int, int, int, int, int, int, long) = eight;
static double (*volatile nine_p)(double, double, double, double, double, double, double, double,
				 double) = nine;
static long (*volatile mixed_p)(int, int, int, int, int, int, const char *, double,
				unsigned char) = mixed_stack;
static long (*volatile after_p)(struct big, int, int, int, int, int, int, int) = after_big;

int main(void)
{
	struct big s = { { 100, 0, 0, 200 } };

	printf("eight = %ld\n", eight_p(1, 2, 3, 4, 5, 6, -7, 8000000000L));
	printf("nine = %g\n", nine_p(0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5));
	printf("mixed = %ld\n", mixed_p(1, 2, 3, 4, 5, 6, "kft", 2.5, 250));
	printf("after = %ld\n", after_p(s, 1, 2, 3, 4, 5, 6, 7));
	return 0;
}
