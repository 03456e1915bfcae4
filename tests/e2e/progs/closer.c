// SPDX-License-Identifier: GPL-2.0-only
/* A program that closes every descriptor but the standard ones, as a
 * daemon does, then puts a directory of its own at most numbers,
 * opens a file (its first descriptor is 3, traced or not) and starts a
 * thread and a child, whose calls need new thread files. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#define KEPT __attribute__((noinline))

KEPT int in_thread(int x) { return x * 3; }
KEPT int in_child(int x) { return x + 7; }

static void *thread_main(void *arg)
{
	return (void *)(long)in_thread((int)(long)arg);
}

int main(void)
{
	long max = sysconf(_SC_OPEN_MAX);
	pthread_t th;
	void *ret;
	pid_t pid;
	int fd;

	for (int i = 3; i < max && i < 65536; i++)
		close(i);
	fd = open("/dev/null", O_RDONLY);
	printf("first descriptor %d\n", fd);
	/* a directory of its own where kft's may have been, at every
	 * number but the last few (room for files to open after) */
	for (int i = 4; i < max - 8 && i < 65536; i++)
		if (open("/", O_RDONLY | O_DIRECTORY) < 0)
			break;
	fflush(stdout);
	pthread_create(&th, NULL, thread_main, (void *)2L);
	pthread_join(th, &ret);
	pid = fork();
	if (pid == 0)
		_exit(in_child(1) == 8 ? 0 : 1);
	waitpid(pid, NULL, 0);
	return ret == (void *)6L ? 0 : 1;
}
