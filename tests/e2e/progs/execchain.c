/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An exec storm: "execchain N" calls step() ten times, then execs
 * "./plain N-1" (built without instrumentation from this file with
 * -DPLAIN), which execs "./execchain N-2", and so on down to 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile int sink;

__attribute__((noinline)) static void step(int i) { sink += i; }

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0;
	char next[16];

#ifndef PLAIN
	for (int i = 0; i < 10; i++)
		step(i);
#endif
	if (n <= 0)
		return 0;
	snprintf(next, sizeof(next), "%d", n - 1);
#ifdef PLAIN
	execl("./execchain", "execchain", next, (char *)NULL);
#else
	execl("./plain", "plain", next, (char *)NULL);
#endif
	return 1;
}
