// SPDX-License-Identifier: GPL-2.0-only
/*
 * Set-up cost: storm procs|threads N CALLS starts N children (fork, one
 * after another) or N threads (four at a time), each making CALLS calls.
 * What a tracer adds per child or thread is its cost of starting a log.
 * storm dlopens N CALLS LIB opens LIB (storm-lib.c) N times, each time
 * calling it for CALLS calls and closing it: a tracer's cost of following
 * a library that comes and goes.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile long sink;

__attribute__((noinline)) static void leaf(long i)
{
	sink += i;
}

__attribute__((noinline)) static void *work(void *arg)
{
	long n = (long)arg;

	for (long i = 0; i < n; i++)
		leaf(i);
	return NULL;
}

int main(int argc, char **argv)
{
	long n, calls;

	if ((argc != 4 || (strcmp(argv[1], "procs") && strcmp(argv[1], "threads"))) &&
	    (argc != 5 || strcmp(argv[1], "dlopens"))) {
		fprintf(stderr, "usage: storm procs|threads N CALLS, storm dlopens N CALLS LIB\n");
		return 2;
	}
	n = atol(argv[2]);
	calls = atol(argv[3]);
	if (!strcmp(argv[1], "dlopens")) {
		for (long i = 0; i < n; i++) {
			void *lib = dlopen(argv[4], RTLD_NOW);
			void (*lib_work)(long) = lib ? (void (*)(long))dlsym(lib, "storm_lib_work") : NULL;

			if (!lib_work) {
				fprintf(stderr, "storm: %s\n", dlerror());
				return 1;
			}
			lib_work(calls);
			dlclose(lib);
		}
		return 0;
	}
	if (!strcmp(argv[1], "procs")) {
		for (long i = 0; i < n; i++) {
			pid_t pid = fork();

			if (pid == 0) {
				work((void *)calls);
				_exit(0);
			}
			waitpid(pid, NULL, 0);
		}
		return 0;
	}
	for (long i = 0; i < n; i += 4) {
		pthread_t tid[4];
		int k = n - i < 4 ? (int)(n - i) : 4;

		for (int j = 0; j < k; j++)
			pthread_create(&tid[j], NULL, work, (void *)calls);
		for (int j = 0; j < k; j++)
			pthread_join(tid[j], NULL);
	}
	return 0;
}
