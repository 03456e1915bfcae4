/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Threads that keep calling while a new config comes in: it writes its
 * pid to ./pid, then three threads call alpha() and beta() every 200
 * microseconds until ./end appears. Each round adds one to the thread's
 * sum through both functions, and the thread counts its rounds: the
 * program says whether every sum came out as its count, which no tracing
 * (or attaching and detaching) may change.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define THREADS 3

static volatile int stop;

struct work {
	long sum, rounds;
};

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
	struct work *w = arg;

	while (!stop) {
		w->sum = beta(alpha((int)w->sum)) - 2;
		w->rounds++;
		usleep(200);
	}
	return NULL;
}

int main(void)
{
	pthread_t tid[THREADS];
	struct work work[THREADS] = { { 0, 0 } };
	int right = 1;
	FILE *f = fopen("pid.tmp", "w");

	if (!f)
		return 1;
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	for (int i = 0; i < THREADS; i++)
		pthread_create(&tid[i], NULL, worker, &work[i]);
	rename("pid.tmp", "pid");
	while (access("end", F_OK))
		usleep(1000);
	stop = 1;
	for (int i = 0; i < THREADS; i++) {
		pthread_join(tid[i], NULL);
		right &= work[i].rounds > 0 && work[i].sum == work[i].rounds;
	}
	printf("calls %s\n", right ? "made, each sum right" : "wrong");
	return 0;
}
