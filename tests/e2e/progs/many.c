/* SPDX-License-Identifier: GPL-2.0-only */
/* many CALLS [THREADS [WAVES]]: each thread calls leaf() CALLS times (a
 * log that must grow); main waits for them, WAVES times over. */
#include <pthread.h>
#include <stdlib.h>

static volatile long sink;

__attribute__((noinline)) static void leaf(long i)
{
	sink += i;
}

__attribute__((noinline)) static void *worker(void *arg)
{
	long n = *(long *)arg;

	for (long i = 0; i < n; i++)
		leaf(i);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	int threads = argc > 2 ? atoi(argv[2]) : 0;
	int waves = argc > 3 ? atoi(argv[3]) : 1;
	pthread_t tid[16];

	if (threads > 16)
		threads = 16;
	for (int w = 0; w < waves; w++) {
		for (int i = 0; i < threads; i++)
			pthread_create(&tid[i], NULL, worker, &n);
		for (int i = 0; i < threads; i++)
			pthread_join(tid[i], NULL);
	}
	if (!threads)
		worker(&n);
	return 0;
}
