/* SPDX-License-Identifier: GPL-2.0-only */
/* Calls into the C library (kft record --libcalls), one of them calling
 * back into the program: none of them can be folded away at -O2. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *volatile kept;

static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

__attribute__((noinline)) void work(const char *name)
{
	int v[2] = { 2, 1 };
	size_t n;

	if (getpid() <= 0)
		return;
	kept = malloc(64);
	n = strlen(name);
	qsort(v, 2, sizeof(v[0]), cmp);
	free(kept);
	if (write(1, "\n", n % 2) < 0)
		_exit(1);
}

int main(int argc, char **argv)
{
	(void)argc;
	work(argv[0]);
	return 0;
}
