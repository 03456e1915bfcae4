// SPDX-License-Identifier: GPL-2.0-only
/* A plugin closed and another opened in its place: the second library
 * is mapped where the first was (the same size), so the addresses of the
 * first's calls now belong to the second. */
#include <dlfcn.h>
#include <stdio.h>

__attribute__((noinline)) static int run(const char *path)
{
	void *h = dlopen(path, RTLD_NOW);
	void (*entry)(void);

	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	entry = (void (*)(void))dlsym(h, "entry");
	entry();
	dlclose(h);
	return 0;
}

int main(int argc, char **argv)
{
	return argc < 3 || run(argv[1]) || run(argv[2]);
}
