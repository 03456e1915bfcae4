// SPDX-License-Identifier: LGPL-2.1
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

#include "compiler.h"
#include "mono-clock.h"
#include "tsc-rate.h"

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

KFT_NOTRACE bool kft_tsc_usable(void)
{
	return tsc_invariant() && kernel_uses_tsc();
}

KFT_NOTRACE void kft_tsc_pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	*tsc = *ns = 0;
	for (int i = 0; i < 8; i++) {
		uint64_t t1 = __rdtsc(), m = kft_mono_now_ns(), t2 = __rdtsc();

		if (t2 - t1 < best) {
			best = t2 - t1;
			*tsc = t1 + (t2 - t1) / 2;
			*ns = m;
		}
	}
}
#else
KFT_NOTRACE bool kft_tsc_usable(void)
{
	return false;
}

KFT_NOTRACE void kft_tsc_pair(uint64_t *tsc, uint64_t *ns)
{
	*tsc = 0;
	*ns = kft_mono_now_ns();
}
#endif

KFT_NOTRACE bool kft_tsc_clock(const char *clock_env)
{
	return !(clock_env && !strcmp(clock_env, "monotonic")) && kft_tsc_usable();
}

KFT_NOTRACE uint64_t kft_tsc_mult_since(uint64_t t0, uint64_t n0)
{
	uint64_t t1, n1;

	while (kft_mono_now_ns() - n0 < KFT_TSC_RATE_SPAN_NS)
		;
	kft_tsc_pair(&t1, &n1);
	if (t1 <= t0 || n1 <= n0)
		return 0;
	return (uint64_t)(((unsigned __int128)(n1 - n0) << 32) / (t1 - t0));
}

KFT_NOTRACE bool kft_tsc_mult_valid(uint64_t mult)
{
	/* 0.01 to 100 ns a tick */
	return mult >= (1ULL << 32) / 100 && mult <= 100ULL << 32;
}
