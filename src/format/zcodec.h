/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * One frame of a .kfz file: KFT_ZCHUNK_RECS records or fewer, as small
 * numbers (LEB128), then zstd. Records are in the order calls ended.
 *
 * KFT_ZCODEC_ZSTD_COLUMNS (what kft writes): four columns, each record's
 * depth less the one before it (zigzag), its duration word, its end (entry
 * plus duration) less the one before it (zigzag), and its site and flags;
 * the lengths of the first three as 32-bit numbers lead. Consecutive ends
 * are nanoseconds apart and most depths one apart, so a call takes about
 * 4.4 bytes before zstd, and each column's likeness to itself is what
 * zstd finds: some 2 bytes a call after, at less than half the time of
 * KFT_ZCODEC_ZSTD_DELTA, which it replaces (each record as its entry word
 * less the one before, duration, site word: about 6 bytes before zstd).
 * Both read back; the writer continues a file in the codec it began in.
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
#define KFT_ZCODEC_SCRATCH(n) ((size_t)(n) * 24 + 16)

/* The compression context, in work memory the caller provides (the
 * runtime's helper does not call malloc): kft_zcodec_work_size() bytes. */
size_t kft_zcodec_work_size(void);
ZSTD_CCtx *kft_zcodec_init(void *work, size_t size);

/* Room a frame of n records may need. */
size_t kft_zcodec_bound(uint32_t n);

/* Whether kft reads (and continues) frames of this codec. */
bool kft_zcodec_known(uint32_t codec);

/* Compress recs[0..n) into dst in codec, by way of scratch
 * (KFT_ZCODEC_SCRATCH(n) bytes). The compressed size, or 0 on error. */
size_t kft_zcodec_pack(ZSTD_CCtx *cctx, uint32_t codec, void *dst, size_t cap,
		       const struct kft_rec *recs, uint32_t n, uint8_t *scratch);

/* Decompress a frame of exactly n records in codec, by way of scratch
 * (KFT_ZCODEC_SCRATCH(n) bytes); 0, or -1 if it is corrupt. */
int kft_zcodec_unpack(ZSTD_DCtx *dctx, uint32_t codec, struct kft_rec *out, uint32_t n,
		      const void *src, size_t zsize, uint8_t *scratch);

#endif
