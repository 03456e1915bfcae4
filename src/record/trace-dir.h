/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Laying out a trace directory for a run (kft-data(5)): taking the
 * directory, its info, config and control files, and saying when the
 * program ended. Errors come back as values.
 */
#ifndef KFT_TRACE_DIR_H
#define KFT_TRACE_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/error.h"
#include "../config/config.h"

/*
 * Make dir, or take an empty one, or replace the older trace in it,
 * removing only the files kft names as a trace's. A directory holding
 * anything else is refused, so is a symbolic link, and so is a directory
 * another kft is recording into: the lock is held until kft exits.
 */
int kft_trace_dir_prepare(const char *dir, struct kft_error *err);
/* dir/name holds len bytes of data, made anew. */
int kft_trace_dir_write(const char *dir, const char *name, const void *data, size_t len,
			struct kft_error *err);
/* The same, the file replaced whole (written beside it, then renamed
 * over it): a process that has the old one mapped keeps it as it was. */
int kft_trace_dir_replace(const char *dir, const char *name, const void *data, size_t len,
			  struct kft_error *err);
/* The info file: kft's and the format's versions, the command, status. */
int kft_trace_dir_write_info(const char *dir, int argc, char **argv, const char *status,
			     struct kft_error *err);
/* config and control; mode adds KFT_MODE_COMPENSATE and
 * KFT_MODE_NO_COMPRESS; max_log_bytes caps the records of every thread
 * together (--max-size), 0 for none */
int kft_trace_dir_write_run(const char *dir, const struct kft_config *cfg, bool primed,
			    uint32_t mode, uint64_t max_log_bytes, struct kft_error *err);
/* How a program ended (a wait status), as the info file's status line
 * ("status = exited 0\n", "status = killed by signal 9\n") into status;
 * kft record's exit status for it: its own, or 128 + the signal. */
int kft_trace_dir_exit_status(int wstatus, char *status, size_t size);
/* The traced program has ended: say when, in dir's control file. */
int kft_trace_dir_mark_ended(const char *dir, struct kft_error *err);
/* Set the trace's clock base (CLOCK_MONOTONIC) to now, in its control
 * file, before the program runs: 0 with *base, or -1. A start or stop a
 * steering command made before then moves to the new base's 0. */
int kft_trace_dir_reset_clock(const char *dir, uint64_t *base);
/* The TSC's rate (common/tsc-rate.h) for the run's runtimes, after the
 * control file's struct (KFT_CONTROL_TSC_MULT_OFF), before the program
 * runs: 0 or -1 (then each measures it). */
int kft_trace_dir_set_tsc_mult(const char *dir, uint64_t mult, struct kft_error *err);
/* A copy kft record --latency made (latency.N in the trace directory
 * dfd): its files, which are a trace's, then the directory. */
void kft_trace_dir_remove_latency_copy(int dfd, const char *name);

#endif
