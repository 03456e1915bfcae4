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

/* A marker in the trace, at this moment and inside the calls open now,
 * as ftrace's trace_marker: kft log shows it as a row, kft ftrace as a
 * comment. Up to 96 bytes of text are kept. Only while the run logs (0
 * otherwise, and nothing written); -1 without kft record. */
int kft_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* kft_printf("%s", name). */
int kft_mark(const char *name);

#ifdef __cplusplus
}
#endif

#endif
