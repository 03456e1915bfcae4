/* SPDX-License-Identifier: LGPL-2.1 */
/* CLOCK_MONOTONIC, the clock a trace's times count on: the tools' and the
 * runtime's. */
#ifndef KFT_MONO_CLOCK_H
#define KFT_MONO_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC now, in ns. */
uint64_t kft_mono_now_ns(void);
/* Sleep ms milliseconds (the polling commands'). */
void kft_nap_ms(long ms);

#endif
