/* SPDX-License-Identifier: GPL-2.0-only */
/* The tools' clock: CLOCK_MONOTONIC, the clock a trace's times count on. */
#ifndef KFT_MONO_CLOCK_H
#define KFT_MONO_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC now, in ns. */
uint64_t kft_mono_now_ns(void);
/* Sleep ms milliseconds (the polling commands'). */
void kft_nap_ms(long ms);

#endif
