// SPDX-License-Identifier: LGPL-2.1
/*
 * The runtime's clock. Two reads per call make the clock the floor of a
 * tracer's cost: clock_gettime through the vDSO costs about twice a bare
 * rdtsc. Where the CPU's TSC is invariant and the kernel itself keeps
 * time with it (so it runs in step on every CPU), kft reads the TSC and
 * turns ticks into CLOCK_MONOTONIC nanoseconds with a rate measured
 * against clock_gettime: by `kft record` while it set the run up (the
 * control file has it; common/tsc-rate.h), else here over 1 ms at
 * start-up (relative error about 1e-5). Otherwise, or with
 * KFT_CLOCK=monotonic, it calls clock_gettime.
 */
#include <string.h>

#include "../common/mono-clock.h"
#include "../common/tsc-rate.h"
#include "runtime.h"

struct kft_clock kft_clock KFT_HIDDEN;

KFT_NOTRACE void kft_clock_init(uint64_t clock_base, uint64_t mult)
{
	uint64_t t0, n0;

	memset(&kft_clock, 0, sizeof(kft_clock));
	kft_clock.base = clock_base;
	if (!kft_tsc_clock(kft_env("KFT_CLOCK")))
		return;
	/* the rate kft record measured (this process's own reading anchors
	 * it), else measured here */
	kft_tsc_pair(&t0, &n0);
	if (!kft_tsc_mult_valid(mult))
		mult = kft_tsc_mult_since(t0, n0);
	kft_clock.tsc0 = t0;
	kft_clock.ns0 = n0 - clock_base;
	kft_clock.mult = mult;
	kft_clock.use_tsc = mult != 0;
}

KFT_NOTRACE uint64_t kft_clock_slow(void)
{
	return kft_mono_now_ns() - kft_clock.base;
}
