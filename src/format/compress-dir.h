/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Compressing what a trace still holds raw once its program has ended:
 * the records the runtime's helper had not reached (the last part of
 * each log, logs of fork children, or all of a run on one CPU or with
 * --no-compress). Each finished thread file is then rewritten without
 * its empty room, so that it is as long as what it holds.
 */
#ifndef KFT_COMPRESS_DIR_H
#define KFT_COMPRESS_DIR_H

#include <stdbool.h>
#include <pthread.h>
#include <stdint.h>

#include "../common/error.h"

struct kft_zstats {
	uint64_t files;		/* thread files whose records are all compressed now */
	uint64_t calls;		/* records compressed by this pass */
	uint64_t live;		/* thread files left alone: their process still runs */
	uint64_t rings;		/* thread files left raw: rings (overwrite) */
};

/* Compress the finished thread files of dir (raw_only: only cut them down
 * to what they hold, their records left raw, for --no-compress). An error
 * names the file; the files done before it stay done, the rest stay raw
 * (and readable). */
int kft_trace_compress(const char *dir, bool raw_only, struct kft_zstats *st,
		       struct kft_error *err);

/* kft_trace_compress on a thread of its own, while the caller reads the
 * trace (kft record's finish: the symbols saved meanwhile). */
struct kft_compress_job {
	const char *dir;
	bool raw_only;
	pthread_t tid;
	bool threaded;		/* else done at once, by the start */
	int ret;
	struct kft_zstats st;
	struct kft_error err;
};

void kft_trace_compress_start(struct kft_compress_job *job, const char *dir, bool raw_only);
/* Its end: kft_trace_compress's return, err set. */
int kft_trace_compress_wait(struct kft_compress_job *job);

#endif
