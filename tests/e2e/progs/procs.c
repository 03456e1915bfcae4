/* SPDX-License-Identifier: GPL-2.0-only */
/* fork and exec: "procs" forks a child that calls in_child(), then execs
 * itself as "procs again", which calls in_exec(). */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* distinct bodies with a side effect: the compiler neither drops the
 * calls nor merges the functions (-pg leaves their code alike) */
static volatile int mark;

__attribute__((noinline)) static void in_child(void) { mark = 1; }
__attribute__((noinline)) static void in_parent(void) { mark = 2; }
__attribute__((noinline)) static void in_exec(void) { mark = 3; }

__attribute__((noinline)) static void spawn(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		in_child();
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	in_parent();
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "again")) {
		in_exec();
		return 0;
	}
	spawn();
	fflush(stdout);
	execl("/proc/self/exe", argv[0], "again", (char *)NULL);
	return 1;
}
