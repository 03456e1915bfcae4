/* SPDX-License-Identifier: GPL-2.0-only */
/* "plant PLUGIN VICTIM": links the trace directory's maps file of the
 * fork child to come (image 2) to VICTIM, then forks a child that opens
 * PLUGIN (which makes it save its memory map). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static void open_plugin(const char *path)
{
	void *h = dlopen(path, RTLD_NOW);

	if (!h)
		exit(1);
}

int main(int argc, char **argv)
{
	const char *dir = getenv("KFT_DIR");
	char link[4096];
	pid_t pid;

	if (argc != 3 || !dir)
		return 2;
	snprintf(link, sizeof(link), "%s/maps-2", dir);
	if (symlink(argv[2], link))
		return 2;
	if ((pid = fork()) == 0) {
		open_plugin(argv[1]);
		exit(0);
	}
	waitpid(pid, NULL, 0);
	return 0;
}
