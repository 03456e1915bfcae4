/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * On the CPU, then off it: spin() runs 20 ms; wait_pipe() then blocks
 * about 100 ms on a pipe a child writes to after sleeping that long (the
 * child's sleep begins at the fork, a little before the wait), so its
 * on-CPU time is far below its wall time.
 */
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) void spin(long us)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

__attribute__((noinline)) void wait_pipe(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		_exit(1);
}

int main(void)
{
	int p[2];

	if (pipe(p))
		return 1;
	spin(20000);
	if (fork() == 0) {
		struct timespec t = { 0, 100000000 };

		nanosleep(&t, NULL);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		_exit(0);
	}
	wait_pipe(p[0]);
	return 0;
}
