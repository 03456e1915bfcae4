/* SPDX-License-Identifier: GPL-2.0-only */
/* Opens the plugin argv[1] names, calls it three times, closes it, opens
 * it again and calls it once more (kft record --lib PATH). */
#include <dlfcn.h>
#include <stdio.h>

static void call_plugin(const char *path, int times)
{
	void *h = dlopen(path, RTLD_NOW);
	void (*entry)(void);

	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return;
	}
	entry = (void (*)(void))dlsym(h, "plugin_entry");
	for (int i = 0; i < times; i++)
		entry();
	dlclose(h);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	call_plugin(argv[1], 3);
	call_plugin(argv[1], 1);
	puts("called");
	return 0;
}
