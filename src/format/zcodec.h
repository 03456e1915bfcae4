/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * One frame of a .kfz file: KFT_ZCHUNK_RECS records or fewer, each as
 * three LEB128 numbers (its entry word less the one before it, zigzag
 * coded; its duration; its site and flags word), then zstd. Records are
 * in the order calls ended, so the numbers are small: about 6 bytes a
 * call before zstd, one or two after, and zstd has a third of the bytes
 * to go through.
 */
#ifndef KFT_ZCODEC_H
#define KFT_ZCODEC_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "trace-format.h"

typedef struct ZSTD_CCtx_s ZSTD_CCtx;
typedef struct ZSTD_DCtx_s ZSTD_DCtx;

/* The most bytes n records take as numbers, before zstd. */
#define KFT_ZCODEC_SCRATCH(n) ((size_t)(n) * 20)

/* The compression context, in work memory the caller provides (the
 * runtime's helper does not call malloc): kft_zcodec_work_size() bytes. */
size_t kft_zcodec_work_size(void);
ZSTD_CCtx *kft_zcodec_init(void *work, size_t size);

/* Room a frame of n records may need. */
size_t kft_zcodec_bound(uint32_t n);

/* Compress recs[0..n) into dst, by way of scratch
 * (KFT_ZCODEC_SCRATCH(n) bytes). The compressed size, or 0 on error. */
size_t kft_zcodec_pack(ZSTD_CCtx *cctx, void *dst, size_t cap, const struct kft_rec *recs,
		       uint32_t n, uint8_t *scratch);

/* Decompress a frame of exactly n records, by way of scratch
 * (KFT_ZCODEC_SCRATCH(n) bytes); 0, or -1 if it is corrupt. */
int kft_zcodec_unpack(ZSTD_DCtx *dctx, struct kft_rec *out, uint32_t n, const void *src,
		      size_t zsize, uint8_t *scratch);

#endif
