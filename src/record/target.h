/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the steering commands act on: a trace directory, or a traced
 * process by its PID, whose trace is the directory of the control file
 * it has mapped; and that control file, mapped to steer the run.
 */
#ifndef KFT_RECORD_TARGET_H
#define KFT_RECORD_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/error.h"
#include "../format/control.h"

/* The trace directory arg names into dir: arg itself, or, for a PID
 * (when no directory has that name), the trace of that traced process. */
int kft_trace_target(const char *arg, char *dir, size_t size, struct kft_error *err);

/* One line of /proc/PID/maps that maps a file. */
struct kft_mapping {
	uint64_t start, offset;
	char perms[8];
	char *path;		/* the file as the process names it (fn may cut it) */
	bool deleted;		/* " (deleted)" was after it: replaced since */
};

/* Each file mapping of process pid, in map order, given to fn until it
 * returns non-zero: that, 0 at the end, or -1 with errno set when the
 * map cannot be read (no process: ENOENT; not ours to read: EACCES). */
int kft_each_mapping(long pid, int (*fn)(struct kft_mapping *m, void *ctx), void *ctx);

/* Where object `name` (a path, or a file name) is loaded in process pid:
 * the start of its mapping at file offset 0, its file into path (size
 * bytes; path may be NULL). 0 if it is not loaded. */
uint64_t kft_object_base(long pid, const char *name, char *path, size_t size);

/* The control file of the trace in dir, mapped shared, for steering a
 * program that still runs; NULL with err set (verb heads the message).
 * Unmap with kft_unmap_control(). */
struct kft_control *kft_map_control(const char *dir, const char *verb, struct kft_error *err);
void kft_unmap_control(struct kft_control *ctl);

#endif
