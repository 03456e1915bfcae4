/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading a thread file's records: where a record is read from disk. A
 * record is in the file's slots (a ring's wrap once at most) or, when the
 * trace was compressed, in a .kfz frame (zreader.h, decompressed on
 * demand); a call is a record, an open frame or an inherited row. The
 * file itself is opened by reader.c.
 */
#ifndef KFT_THREAD_RECORDS_H
#define KFT_THREAD_RECORDS_H

#include "reader.h"

/* The raw record at place j (j >= zcount) of a thread file (an
 * overwriting ring's places wrap once at most; a compressed log's ring
 * holds its records past the .kfz's in slots j % ring). */
static inline const struct kft_rec *kft_thread_raw(const struct kft_thread_file *th, uint64_t j)
{
	return &th->recs[((j < th->hdr.capacity ? j : j - th->hdr.capacity) & th->raw_mask) -
			 th->recs_first];
}

/* The record at place j of a thread file. */
static inline void kft_thread_rec_at(const struct kft_thread_file *th, uint64_t j,
				     struct kft_rec_data *out)
{
	const struct kft_rec *r;

	if (__builtin_expect(j < th->zcount, 0))
		r = kft_zrecs_get(th->z, j);	/* never a ring: first is 0 */
	else
		r = kft_thread_raw(th, j);
	kft_rec_unpack(r, th->sites, th->nsites, out);
}

/* The i-th record of a thread, oldest first. */
static inline void kft_thread_rec(const struct kft_thread_file *th, uint64_t i,
				  struct kft_rec_data *out)
{
	kft_thread_rec_at(th, th->first + i, out);
}

/* The number of the oldest record th holds, counting every record its
 * thread wrote from 0: a ring's before it are gone. Progress kept across
 * openings of a live trace counts in these (first, a place in the file,
 * moves back each time a ring goes round). */
static inline uint64_t kft_thread_oldest(const struct kft_thread_file *th)
{
	return th->hdr.head - th->nrecs;
}

/* The i-th of the calls the image began inside (i < ninherited). */
static inline void kft_thread_inherited(const struct kft_thread_file *th, uint64_t i,
					struct kft_rec_data *out)
{
	*out = th->inherited[i];
}

/* A frame's context flags as a record's (KFT_REC_SIGNAL, KFT_REC_KERNEL). */
static inline uint32_t kft_frame_rec_flags(const struct kft_frame *fr)
{
	return ((fr->flags & KFT_FRAME_SIGNAL) ? KFT_REC_SIGNAL : 0) |
	       ((fr->flags & KFT_FRAME_KERNEL) ? KFT_REC_KERNEL : 0);
}

/* Call i of thread file th: its record i (counted from the first), or
 * from nrecs on its open frame i - nrecs (unfinished: -1), or from nrecs +
 * nframes on its inherited row i - nrecs - nframes (-1, flagged
 * KFT_CALL_INHERITED, its entry left 0 for the call streams to set:
 * entry-order.h), at depth, or with
 * KFT_DEPTH_RECORDED at the depth the record or frame holds. */
#define KFT_DEPTH_RECORDED UINT32_MAX
void kft_thread_call(const struct kft_thread_file *th, uint64_t i, uint32_t depth,
		     struct kft_call *c);

#endif
