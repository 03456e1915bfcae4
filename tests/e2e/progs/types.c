/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Functions whose parameters and results are of each kind of C type kft
 * saves (integers of each size, signed and not, bool, enum, pointers,
 * strings, float and double, mixed in their order) and of kinds it does
 * not (a struct by value, a variadic tail, long double): the program
 * prints what it passed and got, for the tests to compare with what
 * kft saved, from -A specs or from the debug information (-a).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

enum color { RED, GREEN = 5, BLUE };
struct pair {
	long a, b;
};
struct mix {		/* a vector register and an integer one */
	double x;
	long y;
};
struct big {		/* over 16 bytes: in memory, no register */
	char c[20];
};

volatile signed char v_sc = -100;
volatile short v_s = -30000;
volatile unsigned char v_uc = 250;
volatile unsigned short v_us = 65000;
volatile long long v_ll = -5000000000LL;
volatile unsigned long long v_ull = 18000000000000000000ULL;
volatile int v_i = 3, v_j = -4;
volatile double v_d = 2.5;
volatile float v_f = 0.25f;
volatile bool v_b = true;
volatile enum color v_c = GREEN;
const char *volatile v_str = "kft";
volatile long double v_ld = 1.5L;

__attribute__((noinline)) int small(signed char a, short b, unsigned char c, unsigned short d)
{
	return a + b + c + d;
}

__attribute__((noinline)) unsigned long long wide(long long a, unsigned long long b)
{
	return b - (unsigned long long)a;
}

__attribute__((noinline)) double mixed(int a, double b, int c, float d)
{
	return a + b + c + d;
}

__attribute__((noinline)) float half(float x)
{
	return x / 2;
}

__attribute__((noinline)) bool flag(bool b, int x)
{
	return !b && x;
}

__attribute__((noinline)) const char *color_name(enum color c)
{
	return c == GREEN ? "green" : "other";
}

__attribute__((noinline)) enum color next_color(enum color c)
{
	return c == GREEN ? BLUE : RED;
}

__attribute__((noinline)) long by_struct(struct pair p, int after)
{
	return p.a + p.b + after;
}

__attribute__((noinline)) long structs(int a, struct mix m, struct big b, int c, double d)
{
	return a + (long)m.x + m.y + b.c[0] + c + (long)d;
}

__attribute__((noinline)) int vsum(int n, ...)
{
	va_list ap;
	int s = 0;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += va_arg(ap, int);
	va_end(ap);
	return s;
}

__attribute__((noinline)) long double scaled(long double x, int k)
{
	return x * k;
}

int main(void)
{
	struct pair p = { 1, 2 };
	struct mix m = { 2.0, 3 };
	struct big b = { { 4 } };

	printf("small = %d\n", small(v_sc, v_s, v_uc, v_us));
	printf("wide = %llu\n", wide(v_ll, v_ull));
	printf("mixed = %g\n", mixed(v_i, v_d, v_j, v_f));
	printf("half = %g\n", (double)half(v_f + 2.75f));
	printf("flag = %d\n", flag(v_b, v_i));
	printf("color_name = %s\n", color_name(v_c));
	printf("next_color = %d\n", next_color(v_c));
	printf("by_struct = %ld\n", by_struct(p, v_i));
	printf("structs = %ld\n", structs(v_i + 4, m, b, v_i + 6, v_d - 1));
	printf("vsum = %d\n", vsum(3, 1, 2, v_i));
	printf("scaled = %Lg\n", scaled(v_ld, v_i));
	return 0;
}
