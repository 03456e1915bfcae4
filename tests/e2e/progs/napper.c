/* SPDX-License-Identifier: GPL-2.0-only */
/* A library whose constructor starts a thread that naps and calls nap_work
 * until napper_stop: a thread asleep in a system call, in the library's
 * code, whenever the library is being opened (napper-user.c). It counts
 * its calls, and apart those made once napper_begin was called (after
 * dlopen returned: kft has patched the library by then). */
#include <pthread.h>
#include <unistd.h>

static int stop, begun;
static pthread_t worker;
static long calls, calls_begun;

__attribute__((noinline)) static void nap_work(int after_begin)
{
	calls++;
	calls_begun += after_begin;
	__asm__ volatile("");
}

static void *naps(void *arg)
{
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		usleep(5);
		nap_work(__atomic_load_n(&begun, __ATOMIC_ACQUIRE));
	}
	return arg;
}

__attribute__((constructor)) static void start(void)
{
	if (pthread_create(&worker, NULL, naps, NULL))
		calls = -1;
}

void napper_begin(void)
{
	__atomic_store_n(&begun, 1, __ATOMIC_RELEASE);
}

/* The calls made in all; *after_begin, those once napper_begin was. */
long napper_stop(long *after_begin)
{
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	pthread_join(worker, NULL);
	*after_begin = calls_begun;
	return calls;
}
