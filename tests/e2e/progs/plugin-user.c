/* SPDX-License-Identifier: GPL-2.0-only */
/* Opens the plugin argv[1] names, calls it three times, closes it, opens
 * it again and calls it once more (kft record --lib PATH). With a second
 * argument "thread", a second thread spins in the program's code while
 * the plugin is opened, then calls it once itself. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void (*published)(void);	/* the plugin's entry, for the thread */
static int go;

__attribute__((noinline)) static void spin(void)
{
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		__asm__ volatile("pause");
}

static void *thread(void *arg)
{
	spin();
	published();
	return arg;
}

static void call_plugin(const char *path, int times, int publish)
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
	if (publish) {
		published = entry;
		__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
		return;		/* (left open for the thread) */
	}
	dlclose(h);
}

int main(int argc, char **argv)
{
	int threaded = argc > 2 && !strcmp(argv[2], "thread");
	pthread_t t;

	if (argc < 2)
		return 2;
	if (threaded && pthread_create(&t, NULL, thread, NULL))
		return 2;
	call_plugin(argv[1], 3, 0);
	call_plugin(argv[1], 1, threaded);
	if (threaded)
		pthread_join(t, NULL);
	puts("called");
	return 0;
}
