/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How far each thread file of a live trace has been read, by its name:
 * the readers that follow a running program (kft pipe, kft record
 * --latency) re-open the trace at each look and go on from there.
 */
#ifndef KFT_READ_PROGRESS_H
#define KFT_READ_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

struct kft_read_progress {
	char *name;
	uint64_t next;		/* the next record to read (counted as the file's first is) */
};

struct kft_read_progress_set {
	struct kft_read_progress *files;
	size_t n;
};

/* The file's, made at 0 when new; NULL when out of memory. */
struct kft_read_progress *kft_read_progress_of(struct kft_read_progress_set *s, const char *name);
void kft_read_progress_free(struct kft_read_progress_set *s);

#endif
