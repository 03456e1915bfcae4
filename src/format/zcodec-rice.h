/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * KFT_ZCODEC_RICE: a frame of records coded by what the call tree makes
 * likely, in Rice codes, without zstd. A record is written when its call
 * ends, so a call that ended after others at the next depth is their
 * parent, and its entry lies just before the first of them and its end
 * just after the last: the codec writes those small gaps where a general
 * compressor sees only new numbers. Its site is most often one of the two
 * that ended last at its depth. Some 1.6 to 1.8 bytes a call on bench/'s
 * workloads, at some 10 ns a call, against zstd's 1.3 to 1.6 at some 20: the
 * helper thread's work is what a busy machine takes from the program.
 *
 * A frame: a tag byte (raw or coded), a checksum of what follows (32
 * bits), then the records as they are, or the first record's entry time,
 * each field's Rice parameter and least value, and the codes, least
 * significant bit first. Records that would code larger go raw.
 */
#ifndef KFT_ZCODEC_RICE_H
#define KFT_ZCODEC_RICE_H

#include <stddef.h>
#include <stdint.h>

#include "trace-format.h"

/* Scratch the two take for n records, and the most a frame of n takes. */
#define KFT_RICE_SCRATCH(n) ((size_t)(n) * 24 + 20480)
#define KFT_RICE_BOUND(n) ((size_t)(n) * sizeof(struct kft_rec) + 5)

/* Code recs[0..n) into dst (cap bytes, at least KFT_RICE_BOUND(n));
 * the frame's size, or 0 if it does not fit. */
size_t kft_rice_pack(void *dst, size_t cap, const struct kft_rec *recs, uint32_t n,
		     uint8_t *scratch);

/* The check a frame carries of its bytes from the sixth on: damage shows. */
uint32_t kft_rice_checksum(const void *p, size_t len);

/* Read a frame of exactly n records; 0, or -1 if it is corrupt. */
int kft_rice_unpack(struct kft_rec *out, uint32_t n, const void *src, size_t size,
		    uint8_t *scratch);

#endif
