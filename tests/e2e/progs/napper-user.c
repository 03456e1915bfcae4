/* SPDX-License-Identifier: GPL-2.0-only */
/* Opens the library argv[1] names (napper.c), lets its thread run a
 * while, stops it and closes the library, argv[2] times; says how often
 * the thread called in all, and how often once dlopen had returned. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int times = argc > 2 ? atoi(argv[2]) : 1;
	long work = 0, work_begun = 0, begun;

	if (argc < 2)
		return 2;
	for (int i = 0; i < times; i++) {
		void *h = dlopen(argv[1], RTLD_NOW);
		long (*stop)(long *);
		void (*begin)(void);

		if (!h) {
			fprintf(stderr, "%s\n", dlerror());
			return 1;
		}
		begin = (void (*)(void))dlsym(h, "napper_begin");
		stop = (long (*)(long *))dlsym(h, "napper_stop");
		begin();
		usleep(100);
		work += stop(&begun);
		work_begun += begun;
		dlclose(h);
	}
	printf("opened %d times, nap_work called %ld times, %ld after dlopen\n", times, work,
	       work_begun);
	return 0;
}
