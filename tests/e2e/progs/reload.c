// SPDX-License-Identifier: GPL-2.0-only
/* A plugin closed and another opened in its place: the second library
 * is mapped where the first was (the same size), so the addresses of the
 * first's calls now belong to the second. With a third file, it is
 * written over the second's (the same file, in place) before that one is
 * opened: reload LIB LIB NEW opens LIB, and LIB again, rebuilt. */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

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

/* from's bytes over to's, in place */
__attribute__((noinline)) static int copy_over(const char *to, const char *from)
{
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_TRUNC);
	char buf[4096];
	ssize_t n = 0;

	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			n = -1;
	if (in >= 0)
		close(in);
	return (out < 0 || close(out)) || n < 0;
}

int main(int argc, char **argv)
{
	return argc < 3 || run(argv[1]) || (argc > 3 && copy_over(argv[2], argv[3])) ||
	       run(argv[2]);
}
