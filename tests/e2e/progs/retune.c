/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Threads that keep calling while a new config comes in: it writes its
 * pid to ./pid, then three threads call alpha() and beta() every 200
 * microseconds until ./end appears; each thread counts its calls, and the
 * program prints their sum, which no tracing may change.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define THREADS 3

static volatile int stop;

__attribute__((noinline)) static int alpha(int x)
{
	return x + 1;
}

__attribute__((noinline)) static int beta(int x)
{
	return x + 2;
}

static void *worker(void *arg)
{
	long *sum = arg;

	while (!stop) {
		*sum = beta(alpha((int)*sum)) - 2;
		usleep(200);
	}
	return NULL;
}

int main(void)
{
	pthread_t tid[THREADS];
	long sums[THREADS] = { 0 };
	long total = 0;
	FILE *f = fopen("pid.tmp", "w");

	if (!f)
		return 1;
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	for (int i = 0; i < THREADS; i++)
		pthread_create(&tid[i], NULL, worker, &sums[i]);
	rename("pid.tmp", "pid");
	while (access("end", F_OK))
		usleep(1000);
	stop = 1;
	for (int i = 0; i < THREADS; i++) {
		pthread_join(tid[i], NULL);
		total += sums[i];
	}
	printf("calls %s\n", total > 0 ? "made" : "none");
	return 0;
}
