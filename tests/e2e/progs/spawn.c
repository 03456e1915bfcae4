/* SPDX-License-Identifier: GPL-2.0-only */
/* Starts itself twice with an environment of its own: by posix_spawn,
 * and by fork and execle. */
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static void child_work(void)
{
	puts("child");
}

int main(int argc, char **argv)
{
	char *env[] = { "FOO=1", NULL };
	char *args[] = { argv[0], "child", NULL };
	pid_t pid;

	if (argc > 1) {
		child_work();
		return 0;
	}
	if (posix_spawn(&pid, argv[0], NULL, NULL, args, env))
		return 1;
	waitpid(pid, NULL, 0);
	if (!fork()) {
		execle(argv[0], argv[0], "child", (char *)NULL, env);
		_exit(1);
	}
	wait(NULL);
	return 0;
}
