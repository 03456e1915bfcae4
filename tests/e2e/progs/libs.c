/* SPDX-License-Identifier: GPL-2.0-only */
/* PIE code calling a shared library, and a plugin opened with dlopen. */
#include <dlfcn.h>
#include <stdio.h>

void from_a(void);
void from_b(void);

int main(int argc, char **argv)
{
	void *h;
	void (*plug)(void);

	from_a();
	from_b();
	h = dlopen(argv[1], RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	plug = (void (*)(void))dlsym(h, "plugin_entry");
	plug();
	dlclose(h);
	return 0;
}
