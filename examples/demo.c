/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The bundled example: a small program with a slow path worth finding.
 * Build: gcc -g -finstrument-functions -o demo demo.c
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

static void busy_wait_us(long us)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000L + (t.tv_nsec - t0.tv_nsec) / 1000 < us);
}

static unsigned int checksum(const char *s)
{
	unsigned int sum = 0;

	while (*s)
		sum = sum * 31 + (unsigned char)*s++;
	return sum;
}

static void parse_record(const char *line, int slow)
{
	if (slow)
		busy_wait_us(300);	/* the outlier a trace should show */
	(void)checksum(line);
}

static int load_file(int n)
{
	char line[64];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "record %d", i);
		parse_record(line, i == n / 2);
	}
	return i;
}

static void report(int n)
{
	busy_wait_us(100);
	printf("loaded %d records\n", n);
}

int main(void)
{
	report(load_file(8));
	return 0;
}
