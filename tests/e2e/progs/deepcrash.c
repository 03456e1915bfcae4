/* SPDX-License-Identifier: GPL-2.0-only */
/* Recurses 1000 deep, then dies there: "segv" or "abort" (or returns). */
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static void down(int n, const char *how)
{
	if (n > 1) {
		down(n - 1, how);
		__asm__ volatile("");	/* no tail call */
		return;
	}
	if (!strcmp(how, "segv"))
		*(volatile int *)0 = 1;
	else if (!strcmp(how, "abort"))
		abort();
	/* anything else: return, 1000 deep */
}

int main(int argc, char **argv)
{
	down(1000, argc > 1 ? argv[1] : "abort");
	return 0;
}
