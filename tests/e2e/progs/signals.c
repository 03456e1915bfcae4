/* SPDX-License-Identifier: GPL-2.0-only */
/* A signal handler is user space's interrupt context. */
#include <signal.h>

static volatile int handled;

/* (not pure: the call stays; and not a lone ret, which a plain build
 * at the end of its code could not patch) */
__attribute__((noinline)) static void in_handler(void) { handled++; }

__attribute__((noinline)) static void handler(int sig)
{
	in_handler();
}

__attribute__((noinline)) static void normal(void)
{
	raise(SIGUSR1);
}

int main(void)
{
	signal(SIGUSR1, handler);
	normal();
	normal();
	return 0;
}
