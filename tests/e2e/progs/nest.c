/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A call tree in which filters and triggers keep calls whose parents are
 * not kept: b runs under a and, as a cousin, under x and y; c runs long
 * and calls d; a signal handler runs at the end. For the checks that
 * every view gives the same tree under every config.
 */
#include <signal.h>
#include <time.h>

#define SPIN_US(us)                                                                        \
	do {                                                                               \
		struct timespec t0_, t_;                                                   \
		clock_gettime(CLOCK_MONOTONIC, &t0_);                                      \
		do                                                                         \
			clock_gettime(CLOCK_MONOTONIC, &t_);                               \
		while ((t_.tv_sec - t0_.tv_sec) * 1000000L +                              \
		       (t_.tv_nsec - t0_.tv_nsec) / 1000 < (us));                          \
	} while (0)

static volatile int sink;

__attribute__((noinline)) void b(void) { SPIN_US(1000); }
__attribute__((noinline)) void a(void) { b(); sink = 1; }
__attribute__((noinline)) void y(void) { b(); sink = 2; }
__attribute__((noinline)) void x(void) { y(); sink = 3; }
__attribute__((noinline)) void d(void) { sink = 4; }
__attribute__((noinline)) void c(void) { SPIN_US(30000); d(); sink = 5; }
__attribute__((noinline)) void h(void) { sink = 6; }

static void on_usr1(int sig)
{
	(void)sig;
	h();
}

int main(void)
{
	signal(SIGUSR1, on_usr1);
	a();
	x();
	c();
	raise(SIGUSR1);
	return 0;
}
