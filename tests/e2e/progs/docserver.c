/* SPDX-License-Identifier: GPL-2.0-only */
/* The "server" of the man pages' examples (tests/e2e/docs.sh): handles a
 * request every millisecond for two seconds, so that a command run
 * beside it finds it running, then ends by itself. */
#include <time.h>
#include <unistd.h>

static volatile long sink;

__attribute__((noinline)) void lock_table(void) { sink++; }
__attribute__((noinline)) void parse_request(long i) { sink += i; }

__attribute__((noinline)) void handle(long i)
{
	lock_table();
	parse_request(i);
}

__attribute__((noinline)) void handle_request(long i) { handle(i); }

int main(void)
{
	struct timespec t0, now;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0;; i++) {
		handle_request(i);
		usleep(1000);
		clock_gettime(CLOCK_MONOTONIC, &now);
		/* (whole seconds alone: from x.9 s it ended after 1.1) */
		if ((now.tv_sec - t0.tv_sec) * 1000000000L + (now.tv_nsec - t0.tv_nsec) >=
		    2000000000L)
			return 0;
	}
}
