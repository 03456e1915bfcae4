/* SPDX-License-Identifier: GPL-2.0-only */
/* Calls into an instrumented library and a plugin opened with dlopen
 * (twice: opened, called, closed), each of which calls the C library
 * (progs/libcalls-so.c). */
#include <dlfcn.h>
#include <stdio.h>

void from_lib(void);

int main(int argc, char **argv)
{
	void *h;

	(void)argc;
	from_lib();
	for (int i = 0; i < 2; i++) {
		h = dlopen(argv[1], RTLD_NOW);
		if (!h) {
			fprintf(stderr, "%s\n", dlerror());
			return 1;
		}
		((void (*)(void))dlsym(h, "plugin_entry"))();
		dlclose(h);
	}
	return 0;
}
