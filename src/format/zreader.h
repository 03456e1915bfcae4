/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading a thread's compressed records (its .kfz, trace-format.h) a
 * frame at a time, read from the file when needed (never mapped: its
 * pages do not stay in the reader's memory). Decompressed frames are kept in a cache shared by a
 * trace's threads: a few frames a thread, whatever the trace's length,
 * enough for the views' order (records are in the order calls ended,
 * views go in the order they began, so each open call's record lies
 * ahead of the calls it encloses).
 */
#ifndef KFT_ZREADER_H
#define KFT_ZREADER_H

#include <stdint.h>

#include "../common/error.h"
#include "trace-format.h"

struct kft_zcache;
struct kft_zrecs;

/*
 * The .kfz beside thread file path, if there is one (*z NULL if not),
 * with *count the records its whole frames hold, from record 0 on (a
 * frame cut short by a crash is not counted: its records are still in
 * the thread file). *cache is made on first use; free it with
 * kft_zcache_free() after the last kft_zrecs_close().
 */
int kft_zrecs_open(const char *path, struct kft_zcache **cache, struct kft_zrecs **z,
		   uint64_t *count, struct kft_error *err);

/* Record i (below count). A frame that fails its checksum reads as
 * records naming no function, and is counted in kft_zrecs_damaged(). */
const struct kft_rec *kft_zrecs_get(struct kft_zrecs *z, uint64_t i);

/* Frames found corrupt so far. */
uint64_t kft_zrecs_damaged(const struct kft_zrecs *z);

void kft_zrecs_close(struct kft_zrecs *z);
void kft_zcache_free(struct kft_zcache *cache);

#endif
