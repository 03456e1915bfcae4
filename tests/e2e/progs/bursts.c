/* SPDX-License-Identifier: GPL-2.0-only */
/* bursts N PAUSE_MS TAIL [kill]: N calls of leaf(), a pause (for kft's
 * helper to compress them), TAIL more calls; with "kill", then kills
 * its parent (kft record) and itself, so that nothing tidies up after. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile long sink;

__attribute__((noinline)) static void leaf(long i)
{
	sink += i;
}

__attribute__((noinline)) static void burst(long n)
{
	for (long i = 0; i < n; i++)
		leaf(i);
}

int main(int argc, char **argv)
{
	long ms = argc > 2 ? atol(argv[2]) : 0;
	struct timespec pause = { ms / 1000, (ms % 1000) * 1000000 };

	burst(argc > 1 ? atol(argv[1]) : 1000);
	nanosleep(&pause, NULL);
	burst(argc > 3 ? atol(argv[3]) : 0);
	if (argc > 4 && !strcmp(argv[4], "kill")) {
		kill(getppid(), SIGKILL);
		raise(SIGKILL);
	}
	return 0;
}
