/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Functions that take and return each kind of value kft saves (integers
 * of several sizes, signed and not, strings, NULL and a pointer to no
 * memory) and library calls whose arguments tell which file and how
 * much: the program prints what it passed and got, for the test to
 * compare with what kft saved. The values come from volatile variables,
 * so that no compiler can fold them into the functions.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

volatile int v_int = -7;
volatile unsigned char v_u8 = 200;
volatile long v_long = 123456789012L;
volatile unsigned long v_ul = ~0UL;
const char *volatile v_str = "hello, \"kft\"\n";
const char *volatile v_null;
const char *volatile v_bad = (const char *)8;	/* never read */
volatile unsigned int sink;

__attribute__((noinline)) int mix(int a, unsigned char b, long c, unsigned long d)
{
	return a * (int)b + (int)(c % 1000) + (int)(d & 1);
}

/* its length, for a pointer that is no string's: 0 */
__attribute__((noinline)) unsigned long measure(const char *s)
{
	unsigned long n = 0;

	if (s == v_bad)
		return 0;
	while (s && s[n])
		sink += (unsigned char)s[n++];
	return n;
}

__attribute__((noinline)) const char *pick(int i)
{
	return i ? v_str : v_null;
}

int main(void)
{
	char buf[64];
	int fd;
	ssize_t n;

	printf("mix = %d\n", mix(v_int, v_u8, v_long, v_ul));
	printf("measure = %lu\n", measure(v_str));
	printf("measure = %lu\n", measure(v_null));
	printf("measure = %lu\n", measure(v_bad));
	printf("pick = %s\n", pick(1) ? "string" : "NULL");
	printf("pick = %s\n", pick(0) ? "string" : "NULL");
	fd = open("data.txt", O_RDONLY);
	if (fd < 0)
		return 1;
	n = read(fd, buf, sizeof(buf));
	printf("read = %zd\n", n);
	close(fd);
	return 0;
}
