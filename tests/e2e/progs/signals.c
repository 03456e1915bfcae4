/* SPDX-License-Identifier: GPL-2.0-only */
/* A signal handler is user space's interrupt context. */
#include <signal.h>

__attribute__((noinline)) static void in_handler(void) { __asm__ volatile(""); }	/* not pure: the call stays */

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
