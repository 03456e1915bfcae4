// SPDX-License-Identifier: LGPL-2.1
#include <time.h>

#include "compiler.h"
#include "mono-clock.h"

KFT_NOTRACE uint64_t kft_mono_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

KFT_NOTRACE void kft_nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}
