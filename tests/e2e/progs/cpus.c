/* SPDX-License-Identifier: GPL-2.0-only */
/* Runs work(0) on CPU 0, work(1) on CPU 1, work(0) on CPU 0 again: each
 * call's CPU is known by construction. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) static void work(int cpu)
{
	sink += cpu;
}

__attribute__((noinline)) static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int main(void)
{
	for (int i = 0; i < 3; i++) {
		int cpu = i % 2;

		if (pin(cpu) || sched_getcpu() != cpu)
			return 2;
		work(cpu);
	}
	printf("sink %d\n", sink);
	return 0;
}
