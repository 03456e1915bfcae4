/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writing a whole thread file at once, for sources that are not the
 * runtime (the kernel): records in the order the calls ended, then the
 * calls still open at the end, outermost first.
 */
#ifndef KFT_THREAD_WRITER_H
#define KFT_THREAD_WRITER_H

#include <stddef.h>

#include "../common/error.h"
#include "trace-format.h"

struct kft_thread_out {
	uint32_t session, pid, tid;
	const char *comm;
	const struct kft_rec_data *recs;	/* packed on the way out */
	size_t nrecs;
	const struct kft_frame *frames;	/* frames[d]: the open call at depth d */
	size_t nframes;
	struct kft_counters counters;
	uint64_t max_stack;
	uint64_t parent_session, forked_ns;	/* a fork child's (0: none) */
};

/* Write dir/thread-<session>-<tid>-0.kft. */
int kft_thread_write(const char *dir, const struct kft_thread_out *t, struct kft_error *err);

#endif
