/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Threads that kft record -p may find inside a function's first
 * instructions: it writes its pid to ./pid, then two threads call step()
 * without pause and a third waits in pause(2) inside blocked_call's
 * first instructions, until ./end appears; it says whether every sum
 * came out as its count, which attaching and detaching may not change.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

/* blocked_call(nr): system call nr, made from its first bytes */
long blocked_call(long nr);
__asm__(".text\n"
	".globl blocked_call\n"
	".type blocked_call, @function\n"
	"blocked_call:\n"
	"\tmov %edi, %eax\n"
	"\tsyscall\n"
	"\tret\n"
	".size blocked_call, .-blocked_call\n");

static void woken(int sig)
{
	(void)sig;
}

static void *waiter(void *arg)
{
	(void)arg;
	blocked_call(SYS_pause);
	return NULL;
}

#define THREADS 2

static volatile int stop;

struct work {
	long sum, rounds;
};

__attribute__((noinline)) static long step(long x, long y)
{
	return x + y;
}

static void *spin(void *arg)
{
	struct work *w = arg;

	while (!stop) {
		w->sum = step(w->sum, 1);
		w->rounds++;
	}
	return NULL;
}

int main(void)
{
	pthread_t tid[THREADS], wait_tid;
	struct work work[THREADS] = { { 0, 0 } };
	struct sigaction sa = { .sa_handler = woken };
	int right = 1;
	FILE *f = fopen("pid.tmp", "w");

	if (!f || sigaction(SIGUSR1, &sa, NULL))
		return 1;
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	for (int i = 0; i < THREADS; i++)
		pthread_create(&tid[i], NULL, spin, &work[i]);
	pthread_create(&wait_tid, NULL, waiter, NULL);
	rename("pid.tmp", "pid");
	while (access("end", F_OK))
		usleep(1000);
	stop = 1;
	/* (until it has left pause: a signal before would be lost) */
	while (pthread_tryjoin_np(wait_tid, NULL)) {
		pthread_kill(wait_tid, SIGUSR1);
		usleep(1000);
	}
	for (int i = 0; i < THREADS; i++) {
		pthread_join(tid[i], NULL);
		right &= work[i].rounds > 0 && work[i].sum == work[i].rounds;
	}
	printf("calls %s\n", right ? "made, each sum right" : "wrong");
	return 0;
}
