/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fork child that runs inside the calls open at the fork, returns
 * through one of them and calls on: its tree is main and spawn
 * (inherited, its parent's), child_leaf under spawn, then after under
 * main; the parent's is main, spawn and after.
 */
#include <sys/wait.h>
#include <unistd.h>

/* distinct bodies with a side effect: never merged, never dropped */
static volatile int mark;

__attribute__((noinline)) static void child_leaf(void) { mark = 1; }
__attribute__((noinline)) static void after(void) { mark = 2; }

__attribute__((noinline)) static pid_t spawn(void)
{
	pid_t pid = fork();

	if (pid == 0)
		child_leaf();
	return pid;
}

int main(void)
{
	pid_t pid = spawn();

	after();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return 0;
}
