// SPDX-License-Identifier: LGPL-2.1
#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_initStaticCCtx: no allocation */
#include <zstd.h>

#include <string.h>

#include "../common/compiler.h"
#include "zcodec.h"
#include "zcodec-fields.h"
#include "zcodec-rice.h"

/* zstd's fastest positive level: on these numbers, some 14 ns a record
 * here for about a byte a call on recursive code */
#define LEVEL 1

KFT_NOTRACE size_t kft_zcodec_work_size(uint32_t codec)
{
	return codec == KFT_ZCODEC_RICE ? 0 : ZSTD_estimateCCtxSize(LEVEL);
}

KFT_NOTRACE ZSTD_CCtx *kft_zcodec_init(void *work, size_t size)
{
	ZSTD_CCtx *cctx = ZSTD_initStaticCCtx(work, size);

	if (!cctx || ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, LEVEL)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)))
		return NULL;
	return cctx;
}

KFT_NOTRACE size_t kft_zcodec_bound(uint32_t n)
{
	size_t zstd = ZSTD_compressBound(KFT_ZCODEC_SCRATCH(n));

	return zstd > KFT_RICE_BOUND(n) ? zstd : KFT_RICE_BOUND(n);
}

static inline KFT_NOTRACE uint8_t *put(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* The next number from [*p, end), at most bits wide; false if it runs
 * past the end or is too long. */
static inline bool get(const uint8_t **p, const uint8_t *end, unsigned int bits, uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned int shift = 0; *p < end && shift < bits; shift += 7) {
		uint8_t b = *(*p)++;

		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return bits == 64 || !(x >> bits);
		}
	}
	return false;
}

/* The most bytes a record's number takes in each column (see below). */
static const size_t col_max[4] = { 3, 5, 10, 4 };

/* KFT_ZCODEC_ZSTD_COLUMNS: the columns, each written into its own part of
 * scratch, then moved together behind the three lengths. */
static KFT_NOTRACE size_t numbers_columns(const struct kft_rec *recs, uint32_t n, uint8_t *scratch)
{
	uint8_t *start[4], *col[4], *p;
	uint64_t prev_depth = 0, prev_end = 0;

	start[0] = scratch + 12;
	for (int k = 1; k < 4; k++)
		start[k] = start[k - 1] + col_max[k - 1] * n;
	for (int k = 0; k < 4; k++)
		col[k] = start[k];
	for (uint32_t i = 0; i < n; i++) {
		struct rec_fields f;
		uint64_t end;

		rec_split(&recs[i], &f);
		end = f.entry + dur_part(f.dur);
		col[0] = put(col[0], zigzag((int64_t)(f.depth - prev_depth)));
		col[1] = put(col[1], f.dur);
		col[2] = put(col[2], zigzag((int64_t)(end - prev_end)));
		col[3] = put(col[3], f.site);
		prev_depth = f.depth;
		prev_end = end;
	}
	p = col[0];
	for (int k = 1; k < 4; k++) {
		size_t len = (size_t)(col[k] - start[k]);

		memmove(p, start[k], len);
		p += len;
	}
	for (int k = 0; k < 3; k++)
		put_le(scratch + 4 * k, (uint32_t)(col[k] - start[k]), 4);
	return (size_t)(p - scratch);
}

static int records_columns(struct kft_rec *out, uint32_t n, const uint8_t *p, size_t got)
{
	const uint8_t *col[4], *end[4];
	uint64_t prev_depth = 0, prev_end = 0, left;

	if (got < 12)
		return -1;
	col[0] = p + 12;
	left = got - 12;
	for (int k = 0; k < 3; k++) {
		uint32_t len = (uint32_t)get_le(p + 4 * k, 4);

		if (len > left)
			return -1;
		end[k] = col[k] + len;
		col[k + 1] = end[k];
		left -= len;
	}
	end[3] = p + got;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t dd, dur, gap, site;
		struct rec_fields f;

		if (!get(&col[0], end[0], 64, &dd) || !get(&col[1], end[1], 32, &dur) ||
		    !get(&col[2], end[2], 64, &gap) || !get(&col[3], end[3], SITE_WORD_BITS, &site))
			return -1;
		f.depth = prev_depth + (uint64_t)unzigzag(dd);
		prev_end += (uint64_t)unzigzag(gap);
		f.dur = (uint32_t)dur;
		f.entry = prev_end - dur_part(f.dur);
		f.site = (uint32_t)site;
		if (f.depth >> 18 || f.entry >> 55)
			return -1;
		rec_join(&f, &out[i]);
		prev_depth = f.depth;
	}
	for (int k = 0; k < 4; k++)
		if (col[k] != end[k])
			return -1;
	return 0;
}

/* KFT_ZCODEC_ZSTD_DELTA: each record's three words in turn. */
static KFT_NOTRACE size_t numbers_delta(const struct kft_rec *recs, uint32_t n, uint8_t *scratch)
{
	uint8_t *p = scratch;
	uint64_t prev = 0;

	for (uint32_t i = 0; i < n; i++) {
		p = put(p, zigzag((int64_t)(recs[i].entry_depth - prev)));
		prev = recs[i].entry_depth;
		p = put(p, recs[i].dur);
		p = put(p, recs[i].site_flags);
	}
	return (size_t)(p - scratch);
}

static int records_delta(struct kft_rec *out, uint32_t n, const uint8_t *p, size_t got)
{
	const uint8_t *end = p + got;
	uint64_t prev = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t d, dur, site;

		if (!get(&p, end, 64, &d) || !get(&p, end, 32, &dur) || !get(&p, end, 32, &site))
			return -1;
		prev += (uint64_t)unzigzag(d);
		out[i].entry_depth = prev;
		out[i].dur = (uint32_t)dur;
		out[i].site_flags = (uint32_t)site;
	}
	return p == end ? 0 : -1;
}

KFT_NOTRACE bool kft_zcodec_known(uint32_t codec)
{
	return codec == KFT_ZCODEC_ZSTD_DELTA || codec == KFT_ZCODEC_ZSTD_COLUMNS ||
	       codec == KFT_ZCODEC_RICE;
}

KFT_NOTRACE size_t kft_zcodec_pack(ZSTD_CCtx *cctx, uint32_t codec, void *dst, size_t cap,
				   const struct kft_rec *recs, uint32_t n, uint8_t *scratch)
{
	size_t len, z;

	if (codec == KFT_ZCODEC_RICE)
		return kft_rice_pack(dst, cap, recs, n, scratch);
	if (codec == KFT_ZCODEC_ZSTD_COLUMNS)
		len = numbers_columns(recs, n, scratch);
	else if (codec == KFT_ZCODEC_ZSTD_DELTA)
		len = numbers_delta(recs, n, scratch);
	else
		return 0;
	z = ZSTD_compress2(cctx, dst, cap, scratch, len);
	return ZSTD_isError(z) ? 0 : z;
}

int kft_zcodec_unpack(ZSTD_DCtx *dctx, uint32_t codec, struct kft_rec *out, uint32_t n,
		      const void *src, size_t zsize, uint8_t *scratch)
{
	size_t got;

	if (codec == KFT_ZCODEC_RICE)
		return kft_rice_unpack(out, n, src, zsize, scratch);
	got = ZSTD_decompressDCtx(dctx, scratch, KFT_ZCODEC_SCRATCH(n), src, zsize);
	if (ZSTD_isError(got))
		return -1;
	if (codec == KFT_ZCODEC_ZSTD_COLUMNS)
		return records_columns(out, n, scratch, got);
	if (codec == KFT_ZCODEC_ZSTD_DELTA)
		return records_delta(out, n, scratch, got);
	return -1;
}

static void *init_any(void *work, size_t size)
{
	return kft_zcodec_init(work, size);
}

static size_t pack_any(void *cctx, uint32_t codec, void *dst, size_t cap,
		       const struct kft_rec *recs, uint32_t n, uint8_t *scratch)
{
	return kft_zcodec_pack(cctx, codec, dst, cap, recs, n, scratch);
}

const struct kft_zcodecs kft_zcodecs_all = {
	.writes = kft_zcodec_known, .work_size = kft_zcodec_work_size, .init = init_any,
	.bound = kft_zcodec_bound, .pack = pack_any,
};
