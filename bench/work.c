/* SPDX-License-Identifier: GPL-2.0-only */
/* Workload (b): varied depth and real work per call: a merge sort, a
 * hash table of words, and a binary tree, over a fixed pseudo-random
 * input. ROUNDS (argv[1]) scales it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "work-time.h"

#define N 4096

static unsigned int seed = 12345;

__attribute__((noinline)) static unsigned int next_rand(void)
{
	seed = seed * 1103515245 + 12345;
	return seed >> 8;
}

__attribute__((noinline)) static void merge(int *a, int *tmp, int lo, int mid, int hi)
{
	int i = lo, j = mid, k = lo;

	while (i < mid && j < hi)
		tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
	while (i < mid)
		tmp[k++] = a[i++];
	while (j < hi)
		tmp[k++] = a[j++];
	memcpy(a + lo, tmp + lo, (size_t)(hi - lo) * sizeof(*a));
}

__attribute__((noinline)) static void msort(int *a, int *tmp, int lo, int hi)
{
	if (hi - lo < 2)
		return;
	msort(a, tmp, lo, (lo + hi) / 2);
	msort(a, tmp, (lo + hi) / 2, hi);
	merge(a, tmp, lo, (lo + hi) / 2, hi);
}

__attribute__((noinline)) static unsigned int hash_word(const char *w)
{
	unsigned int h = 2166136261u;

	while (*w)
		h = (h ^ (unsigned char)*w++) * 16777619u;
	return h;
}

__attribute__((noinline)) static void make_word(char *buf)
{
	int len = 3 + (int)(next_rand() % 8);

	for (int i = 0; i < len; i++)
		buf[i] = (char)('a' + next_rand() % 26);
	buf[len] = '\0';
}

struct node {
	int key;
	struct node *left, *right;
};

__attribute__((noinline)) static struct node *insert(struct node *t, int key, struct node *pool,
						      int *used)
{
	if (!t) {
		t = &pool[(*used)++];
		t->key = key;
		t->left = t->right = NULL;
		return t;
	}
	if (key < t->key)
		t->left = insert(t->left, key, pool, used);
	else
		t->right = insert(t->right, key, pool, used);
	return t;
}

__attribute__((noinline)) static long walk(const struct node *t)
{
	return t ? walk(t->left) + t->key + walk(t->right) : 0;
}

__attribute__((noinline)) static long round_of_work(void)
{
	static int a[N], tmp[N];
	static struct node pool[N];
	static unsigned int table[1024];
	struct node *root = NULL;
	char word[16];
	int used = 0;
	long sum = 0;

	for (int i = 0; i < N; i++)
		a[i] = (int)(next_rand() % 100000);
	msort(a, tmp, 0, N);
	for (int i = 0; i < N; i++) {
		make_word(word);
		table[hash_word(word) % 1024]++;
	}
	for (int i = 0; i < N / 4; i++)
		root = insert(root, (int)(next_rand() % 100000), pool, &used);
	sum += walk(root) + a[N / 2] + (long)table[7];
	return sum;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 100;
	long long t0, t1, ns = 0;
	long sum = 0;

	for (int r = 0; r < rounds; r++) {
		WORK_NOW(t0);
		sum += round_of_work();
		WORK_NOW(t1);
		ns += t1 - t0;
	}
	WORK_REPORT(ns);
	printf("work: %ld\n", sum);
	return 0;
}
