/* SPDX-License-Identifier: GPL-2.0-only */
/* Stack use that grows: nest(3) uses about 3 x 4 KiB more than nest(0). */
#include <string.h>

__attribute__((noinline)) static int nest(int n)
{
	char buf[4096];

	memset(buf, n, sizeof(buf));
	__asm__ volatile("" : : "r"(buf) : "memory");	/* keep every byte */
	return n ? nest(n - 1) + buf[100] : buf[0];
}

int main(void)
{
	nest(1);
	nest(3);
	nest(2);
	return 0;
}
