/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fork children that return through the calls open at the fork, while
 * their parent returns from the same calls and makes others at once (a
 * shell's command substitution does so): each child must find its own
 * calls, as they were at the fork, and exit 7.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;

__attribute__((noinline)) static pid_t level3(void)
{
	return fork();
}

__attribute__((noinline)) static pid_t level2(void)
{
	pid_t p = level3();

	sink++;
	return p;
}

__attribute__((noinline)) static pid_t level1(void)
{
	pid_t p = level2();

	sink++;
	return p;
}

__attribute__((noinline)) static void busy(int n)
{
	if (n)
		busy(n - 1);
	sink++;
}

int main(void)
{
	int ok = 0;

	for (int i = 0; i < 40; i++) {
		pid_t p = level1();
		int status;

		if (p == 0)
			_exit(7);
		busy(20);
		if (waitpid(p, &status, 0) == p && WIFEXITED(status) && WEXITSTATUS(status) == 7)
			ok++;
	}
	printf("%d\n", ok);
	return 0;
}
