// SPDX-License-Identifier: GPL-2.0-only
/*
 * A program with an allocator of its own, which counts its calls from
 * main on, across a fork: kft's runtime must never call it (its trace
 * holds exactly the calls counted, and the counts are those of an
 * untraced run). Each process says its count when it ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char pool[1 << 22];
static size_t used;
static int counting;
long calls;

__attribute__((noinline)) void *malloc(size_t n)
{
	void *p = pool + used;

	calls += counting;
	used += (n + 15) & ~(size_t)15;
	return p;
}

__attribute__((noinline)) void free(void *p)
{
	calls += counting && p;
}

__attribute__((noinline)) void *calloc(size_t a, size_t b)
{
	void *p = malloc(a * b);

	memset(p, 0, a * b);
	return p;
}

__attribute__((noinline)) void *realloc(void *old, size_t n)
{
	void *p = malloc(n);

	if (old)
		memcpy(p, old, n);
	return p;
}

__attribute__((noinline)) static char *keep(size_t n)
{
	char *p = malloc(n);

	p[0] = 1;
	return p;
}

int main(void)
{
	static char out[4096];
	char *a;
	pid_t pid;

	/* (stdio's buffer its own, not malloc's) */
	setvbuf(stdout, out, _IOFBF, sizeof(out));
	counting = 1;
	a = keep(10);
	free(a);
	a = keep(20);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		free(keep(30));
		printf("child %ld\n", calls);
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	free(a);
	printf("parent %ld\n", calls);
	return 0;
}
