// SPDX-License-Identifier: GPL-2.0-only
/* Starts the program argv[1] names (built without instrumentation) by
 * posix_spawn, then a shell pipeline of it, as make or a test runner
 * does: kft record traces all of them. */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

extern char **environ;

__attribute__((noinline)) static int start_one(const char *prog)
{
	char *args[] = { (char *)prog, "1", NULL };
	pid_t pid;
	int status;

	if (posix_spawn(&pid, prog, NULL, NULL, args, environ) ||
	    waitpid(pid, &status, 0) != pid)
		return 1;
	return WEXITSTATUS(status);
}

__attribute__((noinline)) static int start_pipeline(const char *prog)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "%s 2 | %s 3", prog, prog);
	fflush(stdout);
	return system(cmd);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	return start_one(argv[1]) || start_pipeline(argv[1]);
}
