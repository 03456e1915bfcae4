// SPDX-License-Identifier: GPL-2.0-only
/* A daemon: the parent returns from daemon() no more (it exits), and the
 * child goes on alone after a pause, long after its parent's end; it
 * says it is done in the file argv[1] names. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define KEPT __attribute__((noinline))

KEPT int c(int x) { return x + 1; }
KEPT int b(int x) { return c(x) * 2; }
KEPT int a(int x) { return b(x) + 3; }

int main(int argc, char **argv)
{
	FILE *f;
	int r;

	if (argc < 2 || daemon(1, 0) < 0)
		return 1;
	usleep(argc > 2 ? atoi(argv[2]) * 1000 : 300000);
	r = a(1);
	f = fopen(argv[1], "w");
	if (!f)
		return 1;
	fprintf(f, "done %d\n", r);
	fclose(f);
	return 0;
}
