/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which file was slow: the program writes three files of different
 * sizes and loads each a few times (small.txt and medium.txt three times,
 * large.txt once; with an argument, medium.txt five times), printing how
 * many times it loaded each and how many bytes each load read, for the
 * tests to compare with what kft saved of load's argument and read's
 * return values.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char chunk[65536];

static int make(const char *path, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return -1;
	memset(chunk, 'k', sizeof(chunk));
	while (size) {
		size_t n = size < sizeof(chunk) ? size : sizeof(chunk);

		if (write(fd, chunk, n) != (ssize_t)n)
			return -1;
		size -= n;
	}
	return close(fd);
}

/* path's bytes, read 64 KiB at a time */
__attribute__((noinline)) long load(const char *path)
{
	long total = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		total += n;
	close(fd);
	return total;
}

int main(int argc, char **argv)
{
	struct { const char *path; size_t size; int times; } files[] = {
		{ "small.txt", 100, 3 },
		{ "medium.txt", 200000, 3 },
		{ "large.txt", 32 << 20, 1 },
	};

	(void)argv;
	if (argc > 1)
		files[1].times = 5;
	for (int i = 0; i < 3; i++)
		if (make(files[i].path, files[i].size))
			return 1;
	for (int round = 0; round < 5; round++)
		for (int i = 0; i < 3; i++)
			if (round < files[i].times)
				printf("load %s = %ld\n", files[i].path, load(files[i].path));
	return 0;
}
