/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * KFT logs as text: /proc/kft_data as the kernel printed it (raw, or with
 * names after addr2sym), with SMP ".N" cpu suffixes, -1 durations, pid -1
 * for interrupts, and the older forms: "no exit" for the delta (KFI),
 * and the printk dump (addresses without 0x, 'i' after an interrupt's
 * pid, 4294967295 for an unset delta).
 */
#ifndef KFT_TEXT_LOG_H
#define KFT_TEXT_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/error.h"

struct kft_text_row {
	int64_t entry_ns;	/* in ns whatever the log's unit */
	int64_t delta_ns;	/* -1: exit not seen, -2: stack watch */
	int64_t unit_ns;	/* what the log's times are rounded down to:
				 * 1000 (usec), 1 (`kft log --ns`) */
	char pid[24];		/* as printed, e.g. "33", "-1", "33.1", "12i" */
	int64_t tid;		/* the number in it */
	uint32_t coroutine;	/* "33/2": the thread's coroutine stack 2 */
	bool irq;		/* interrupt context: pid -1 or an 'i' suffix */
	char *func;		/* name, or address text */
	char *caller;		/* as printed: "name+0x1c" or an address */
	char *args;		/* what follows (frame pointer, arguments), or NULL */
	unsigned int line;
};


/* How a log is read (flags of kft_text_reader_open) */
/* A Delta of 0 is an exit not seen (-1), as KFI's logs meant it; a KFI-era
 * log (its last column titled "Called At") is read so without asking. */
#define KFT_TEXT_ZERO_UNFINISHED	0x1

/*
 * A log read row by row, as often as wanted: path, or "-" for stdin (kept
 * in a temporary file unless it is a file itself). Memory stays that of
 * one row. Errors name the file and line.
 */
struct kft_text_reader;

struct kft_text_reader *kft_text_reader_open(const char *path, unsigned int flags,
					     struct kft_error *err);
/* The next row into *row (the reader's, its strings too, until the next
 * call): 1, or 0 at the end; -1 on an error, also when no data came (not
 * a KFT log). */
int kft_text_reader_next(struct kft_text_reader *r, const struct kft_text_row **row,
			 struct kft_error *err);
/* Back to the first row. */
int kft_text_reader_rewind(struct kft_text_reader *r, struct kft_error *err);
void kft_text_reader_close(struct kft_text_reader *r);
/* A row's own strings (kft_text_log_parse_row's). */
void kft_text_row_free(struct kft_text_row *row);

/* The caller's function: "name+0x1c" -> "name". */
void kft_caller_name(const char *called_at, char *out, size_t size);

/* A marker's row of `kft log` ("Entry # PID text"): no call, passed over. */
bool kft_text_log_is_marker(const char *line);
/* Parse one data line into a row with strings of its own (exposed for
 * the unit tests). */
int kft_text_log_parse_row(struct kft_text_row *row, char *line, const char *origin,
			   unsigned int lineno, struct kft_error *err);

#endif
