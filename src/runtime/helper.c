// SPDX-License-Identifier: LGPL-2.1
/*
 * The runtime's own thread, on a machine with more than one CPU. It has
 * four jobs, each in its own file: fault each thread's log in ahead of its
 * writer (prefault.c), compress what the writers have finished
 * (compress.c), take a new run's config (resolve.c), and turn a patchable
 * build's entries on and off as the run starts and ends (patch.c). It
 * blocks every signal, runs no traced code, and sleeps half a millisecond
 * when there is nothing to do. Attached to a running program (kft record
 * -p), it ends once kft has let the program go.
 * A fork child goes without (it may exec, or need to be alone).
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runtime.h"

static int running;
static int quit;		/* the helper's end is asked */
static int helper_tid;

static KFT_NOTRACE void *helper(void *arg)
{
	struct timespec nap = { 0, 500000 };

	(void)arg;
	__atomic_store_n(&helper_tid, gettid(), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&quit, __ATOMIC_ACQUIRE)) {
		bool busy = kft_prefault_step();

		busy |= kft_compress_step();

		kft_reload_follow();
		kft_patch_follow_run();
		/* attached, once the sites are NOPs for good: nothing is left
		 * to do in a program kft has let go */
		if (kft_rt.attached && kft_patch_detached())
			break;
		if (!busy)
			nanosleep(&nap, NULL);
	}
	__atomic_store_n(&running, 0, __ATOMIC_RELEASE);
	return NULL;
}

KFT_NOTRACE void kft_helper_quit(void)
{
	__atomic_store_n(&quit, 1, __ATOMIC_RELEASE);
}

KFT_NOTRACE void kft_helper_start(void)
{
	const char *want = kft_env("KFT_PREFAULT");
	pthread_attr_t attr;
	pthread_t tid;
	sigset_t all, old;

	kft_prefault_reset();
	kft_compress_reset();
	running = 0;
	quit = 0;
	helper_tid = 0;
	if (want && !strcmp(want, "0"))
		return;		/* for programs that must stay single-threaded */
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return;		/* it would only take the CPU from the program */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);	/* inherited by the helper */
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	running = !pthread_create(&tid, &attr, helper, NULL);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* In a fork child: the helper did not survive fork. */
KFT_NOTRACE void kft_helper_stop(void)
{
	kft_prefault_reset();
	kft_compress_reset();
	running = 0;
}

KFT_NOTRACE bool kft_helper_running(void)
{
	return running;
}

KFT_NOTRACE int kft_helper_tid(void)
{
	return __atomic_load_n(&running, __ATOMIC_ACQUIRE) ?
		       __atomic_load_n(&helper_tid, __ATOMIC_ACQUIRE) : 0;
}
