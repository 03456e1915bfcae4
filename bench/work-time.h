/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The workloads time their own work when BENCH_WORK_NS is set, for the
 * compensation rows of bench/run.sh: "work_ns N" on stderr, N the
 * nanoseconds spent in the function kft's compensated Time is compared
 * with. A macro, not a function, so that it adds no traced call.
 */
#ifndef BENCH_WORK_TIME_H
#define BENCH_WORK_TIME_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define WORK_NOW(t)								\
	do {									\
		struct timespec ts_;						\
		clock_gettime(CLOCK_MONOTONIC, &ts_);				\
		(t) = ts_.tv_sec * 1000000000LL + ts_.tv_nsec;			\
	} while (0)

#define WORK_REPORT(ns)								\
	do {									\
		if (getenv("BENCH_WORK_NS"))					\
			fprintf(stderr, "work_ns %lld\n", (long long)(ns));	\
	} while (0)

#endif
