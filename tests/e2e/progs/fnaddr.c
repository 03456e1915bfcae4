// SPDX-License-Identifier: GPL-2.0-only
/* A program built without PIE that takes the address of a library
 * function it also calls: its PLT entry stands for the function (the
 * symbol undefined, its value the entry), and its slot is not bound
 * before the first call (lazy binding). */
#include <stdio.h>
#include <stdlib.h>

void *(*volatile allocate)(size_t) = malloc;

int main(void)
{
	char *a = malloc(16), *b = allocate(32);

	a[0] = b[0] = 1;
	free(a);
	free(b);
	puts(allocate == malloc ? "same" : "other");
	return 0;
}
