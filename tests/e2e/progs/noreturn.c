/* SPDX-License-Identifier: GPL-2.0-only */
/* Library calls that never return (kft record --libcalls): a thread
 * leaves by pthread_exit, then main ends by exit(3), abort() or _exit(4)
 * as argv[1] says (1, 2, 3). */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) void leave_thread(void)
{
	pthread_exit(NULL);
}

__attribute__((noinline)) static void *worker(void *arg)
{
	leave_thread();
	return arg;
}

__attribute__((noinline)) void finish(int how)
{
	if (how == 1)
		exit(3);
	if (how == 2)
		abort();
	_exit(4);
}

int main(int argc, char **argv)
{
	pthread_t t;

	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	finish(argc > 1 ? argv[1][0] - '0' : 1);
	return 0;
}
