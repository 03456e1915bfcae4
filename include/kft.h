/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * kft.h: what a traced program may call. Link with -lkft. Every call is
 * a no-op when the program runs without `kft record`.
 */
#ifndef KFT_H
#define KFT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Start the run now, as `kft start` (no prime needed). 0 if it started. */
int kft_start(void);

/* Stop the run now, as `kft stop`. 0 if it stopped. */
int kft_stop(void);

/* Arm the start trigger, as `kft prime`. 0 on success. */
int kft_prime(void);

/* Tracing off, as `kft tracing off` (ftrace's tracing_on): calls entered
 * from now on are not logged, until kft_resume(); the run goes on, and
 * the calls open now are logged when they end. Every thread and process
 * of the trace at once. 0 on success. */
int kft_pause(void);

/* Tracing on again, as `kft tracing on`. 0 on success. */
int kft_resume(void);

#ifdef __cplusplus
}
#endif

#endif
