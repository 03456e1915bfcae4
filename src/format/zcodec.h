/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * One frame of a .kfz file: KFT_ZCHUNK_RECS records or fewer, in one of
 * the codecs below. Records are in the order calls ended.
 *
 * KFT_ZCODEC_RICE (what kft writes, zcodec-rice.h): each record as what
 * the call tree so far makes likely of it, in Rice codes: under 2 bytes
 * a call at some 10 ns.
 *
 * Older kft wrote zstd, which still reads: KFT_ZCODEC_ZSTD_COLUMNS, four
 * columns of small numbers (LEB128), each record's depth less the one
 * before it (zigzag), its duration word, its end (entry plus duration)
 * less the one before it (zigzag), and its site and flags, the lengths of
 * the first three as 32-bit numbers first (some 1.3 bytes a call after
 * zstd, at some 20 ns a call); before it, KFT_ZCODEC_ZSTD_DELTA, each
 * record as its entry word less the one before, duration, site word.
 * The writer continues a file in the codec it began in.
 */
#ifndef KFT_ZCODEC_H
#define KFT_ZCODEC_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "trace-format.h"
#include "zcodec-rice.h"

typedef struct ZSTD_CCtx_s ZSTD_CCtx;
typedef struct ZSTD_DCtx_s ZSTD_DCtx;

/* Scratch a frame of n records takes, in any codec (zstd's numbers take
 * at most 24 bytes a record). */
#define KFT_ZCODEC_SCRATCH(n) KFT_RICE_SCRATCH(n)

/* The compression context, in work memory the caller provides (the
 * runtime's helper does not call malloc): kft_zcodec_work_size(codec)
 * bytes, 0 for a codec that needs none (KFT_ZCODEC_RICE: no context). */
size_t kft_zcodec_work_size(uint32_t codec);
ZSTD_CCtx *kft_zcodec_init(void *work, size_t size);

/* Room a frame of n records may need. */
size_t kft_zcodec_bound(uint32_t n);

/* Whether kft reads (and continues) frames of this codec. */
bool kft_zcodec_known(uint32_t codec);

/* Compress recs[0..n) into dst in codec, by way of scratch
 * (KFT_ZCODEC_SCRATCH(n) bytes). The compressed size, or 0 on error. */
size_t kft_zcodec_pack(ZSTD_CCtx *cctx, uint32_t codec, void *dst, size_t cap,
		       const struct kft_rec *recs, uint32_t n, uint8_t *scratch);

/*
 * The codecs a program writes frames in, and continues files in: the
 * runtime's (kft_zcodecs_rice, zcodec-rice.c: Rice alone, so libkft
 * needs no zstd; a .kfz an older kft began in zstd is left to kft
 * record's finish) or the tools' (kft_zcodecs_all, zcodec.c: every codec
 * above). The functions as those above.
 */
struct kft_zcodecs {
	bool (*writes)(uint32_t codec);
	size_t (*work_size)(uint32_t codec);
	void *(*init)(void *work, size_t size);
	size_t (*bound)(uint32_t n);
	size_t (*pack)(void *cctx, uint32_t codec, void *dst, size_t cap,
		       const struct kft_rec *recs, uint32_t n, uint8_t *scratch);
};

extern const struct kft_zcodecs kft_zcodecs_rice;
extern const struct kft_zcodecs kft_zcodecs_all;

/* Decompress a frame of exactly n records in codec, by way of scratch
 * (KFT_ZCODEC_SCRATCH(n) bytes); 0, or -1 if it is corrupt. */
int kft_zcodec_unpack(ZSTD_DCtx *dctx, uint32_t codec, struct kft_rec *out, uint32_t n,
		      const void *src, size_t zsize, uint8_t *scratch);

#endif
