// SPDX-License-Identifier: GPL-2.0-only
/*
 * A program whose system calls mark its phases, for the kernel tests:
 *   uname          (before)
 *   getppid        the start trigger
 *   open/read/close a file
 *   sched_yield    the stop trigger
 *   uname          (after)
 * With the argument "exec", it then runs itself again by execve (one
 * thread, two process images).
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static __attribute__((noinline)) void ask_name(void)
{
	struct utsname u;

	uname(&u);
}

static __attribute__((noinline)) long read_file(const char *path)
{
	char buf[256], name[64];
	long n;
	int fd;

	/* on the stack: a kprobe reads a string in a page already touched */
	snprintf(name, sizeof(name), "%s", path);
	fd = open(name, O_RDONLY);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n;
}

static __attribute__((noinline)) void work(void)
{
	getppid();
	read_file("/proc/version");
	sched_yield();
}

int main(int argc, char **argv)
{
	ask_name();
	work();
	ask_name();
	if (argc > 1 && !strcmp(argv[1], "exec"))
		execl(argv[0], argv[0], (char *)NULL);
	return 0;
}
