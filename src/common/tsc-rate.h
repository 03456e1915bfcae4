/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The TSC as a clock: whether it can be one here, and its rate against
 * CLOCK_MONOTONIC. The runtime times calls with it (runtime/clock.c);
 * `kft record` measures its rate while it sets a run up, over the time it
 * waits anyway, and leaves it in the trace's control file
 * (KFT_CONTROL_TSC_MULT_OFF), so that no traced process spends a
 * millisecond measuring it again at start.
 */
#ifndef KFT_TSC_RATE_H
#define KFT_TSC_RATE_H

#include <stdbool.h>
#include <stdint.h>

/* the least time a rate is measured over (its error about 1e-5) */
#define KFT_TSC_RATE_SPAN_NS 1000000

/* Invariant, and the kernel keeps time with it: it runs in step on every
 * CPU, as CLOCK_MONOTONIC does. */
bool kft_tsc_usable(void);

/* Whether a traced process times its calls with the TSC: it is usable,
 * and clock_env (KFT_CLOCK's value, or NULL) does not ask for
 * clock_gettime ("monotonic"). */
bool kft_tsc_clock(const char *clock_env);

/* A TSC reading and CLOCK_MONOTONIC's, read as close together as the
 * machine allows. */
void kft_tsc_pair(uint64_t *tsc, uint64_t *ns);

/* Nanoseconds a tick, << 32, from the pair (t0, n0) to now, once at least
 * KFT_TSC_RATE_SPAN_NS have passed (it waits out the rest); 0 if the
 * readings give none. */
uint64_t kft_tsc_mult_since(uint64_t t0, uint64_t n0);

/* Whether mult is a rate a TSC of 10 MHz to 100 GHz could have. */
bool kft_tsc_mult_valid(uint64_t mult);

#endif
