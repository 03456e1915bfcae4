/* SPDX-License-Identifier: GPL-2.0-only */
/* Fork children and memory maps: "forkmaps PLUGIN" forks one child that
 * only calls its own code and leaves by _exit, then one that opens
 * PLUGIN and calls into it and leaves by exit; the parent then opens
 * PLUGIN too. */
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int mark;

__attribute__((noinline)) static void own_code(void) { mark = 1; }
__attribute__((noinline)) static void after_forks(void) { mark = 2; }

__attribute__((noinline)) static void call_plugin(const char *path)
{
	void *h = dlopen(path, RTLD_NOW);
	void (*entry)(void) = h ? (void (*)(void))dlsym(h, "plugin_entry") : NULL;

	if (entry)
		entry();
}

int main(int argc, char **argv)
{
	pid_t pid;

	if (argc != 2)
		return 2;
	if ((pid = fork()) == 0) {
		own_code();
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	if ((pid = fork()) == 0) {
		call_plugin(argv[1]);
		exit(0);
	}
	waitpid(pid, NULL, 0);
	after_forks();
	call_plugin(argv[1]);
	return 0;
}
