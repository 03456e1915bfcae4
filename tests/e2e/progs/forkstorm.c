/* SPDX-License-Identifier: GPL-2.0-only */
/* A fork storm: 200 children one after another, each calling leaf() 100 times. */
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;

__attribute__((noinline)) static void leaf(int i) { sink += i; }

int main(void)
{
	for (int c = 0; c < 200; c++) {
		pid_t pid = fork();

		if (pid == 0) {
			for (int i = 0; i < 100; i++)
				leaf(i);
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, NULL, 0) != pid)
			return 1;
	}
	return 0;
}
