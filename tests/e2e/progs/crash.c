/* SPDX-License-Identifier: GPL-2.0-only */
/* Dies in one of several ways inside dying(), called from doomed(). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) static void finished(void) { __asm__ volatile(""); }	/* not pure: the call stays */

__attribute__((noinline)) static void dying(const char *how)
{
	if (!strcmp(how, "segv"))
		*(volatile int *)0 = 1;
	else if (!strcmp(how, "abort"))
		abort();
	else if (!strcmp(how, "kill"))
		kill(getpid(), SIGKILL);
	else
		_exit(7);
}

__attribute__((noinline)) static void doomed(const char *how)
{
	finished();
	dying(how);
}

int main(int argc, char **argv)
{
	doomed(argc > 1 ? argv[1] : "exit");
	return 0;
}
