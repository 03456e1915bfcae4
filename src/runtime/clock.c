// SPDX-License-Identifier: LGPL-2.1
/*
 * The runtime's clock. Two reads per call make the clock the floor of a
 * tracer's cost: clock_gettime through the vDSO costs about twice a bare
 * rdtsc. Where the CPU's TSC is invariant and the kernel itself keeps
 * time with it (so it runs in step on every CPU), kft reads the TSC and
 * turns ticks into CLOCK_MONOTONIC nanoseconds with a rate measured
 * against clock_gettime over 1 ms at start-up (relative error about
 * 1e-5). Otherwise, or with KFT_CLOCK=monotonic, it calls clock_gettime.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

#include "runtime.h"

struct kft_clock kft_clock KFT_HIDDEN;

KFT_NOTRACE uint64_t kft_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__)
static KFT_NOTRACE bool kernel_uses_tsc(void)
{
	char buf[16] = { 0 };
	int fd = open("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		      O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n >= 3 && !strncmp(buf, "tsc", 3) && (buf[3] == '\n' || buf[3] == '\0');
}

static KFT_NOTRACE bool tsc_invariant(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000007)
		return false;
	__get_cpuid(0x80000007, &a, &b, &c, &d);
	return d & (1U << 8);
}

/* A (tsc, ns) pair read as close together as the machine allows. */
static KFT_NOTRACE void pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 8; i++) {
		uint64_t t1 = __rdtsc(), m = kft_mono_ns(), t2 = __rdtsc();

		if (t2 - t1 < best) {
			best = t2 - t1;
			*tsc = t1 + (t2 - t1) / 2;
			*ns = m;
		}
	}
}
#endif

KFT_NOTRACE void kft_clock_init(uint64_t clock_base)
{
	const char *want = kft_env("KFT_CLOCK");

	memset(&kft_clock, 0, sizeof(kft_clock));
	kft_clock.base = clock_base;
#if defined(__x86_64__)
	if (want && !strcmp(want, "monotonic"))
		return;
	if (tsc_invariant() && kernel_uses_tsc()) {
		uint64_t t0, n0, t1, n1;

		pair(&t0, &n0);
		while (kft_mono_ns() - n0 < 1000000)
			;
		pair(&t1, &n1);
		if (t1 <= t0 || n1 <= n0)
			return;
		kft_clock.tsc0 = t0;
		kft_clock.ns0 = n0 - clock_base;
		kft_clock.mult = (uint64_t)(((unsigned __int128)(n1 - n0) << 32) / (t1 - t0));
		kft_clock.use_tsc = kft_clock.mult != 0;
	}
#else
	(void)want;
#endif
}

KFT_NOTRACE uint64_t kft_clock_slow(void)
{
	return kft_mono_ns() - kft_clock.base;
}
