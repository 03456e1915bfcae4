// SPDX-License-Identifier: LGPL-2.1
#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_initStaticCCtx: no allocation */
#include <zstd.h>

#include "../common/compiler.h"
#include "zcodec.h"

/* zstd's fastest positive level: on these numbers, some 14 ns a record
 * here for about a byte a call on recursive code */
#define LEVEL 1

KFT_NOTRACE size_t kft_zcodec_work_size(void)
{
	return ZSTD_estimateCCtxSize(LEVEL);
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
	return ZSTD_compressBound(KFT_ZCODEC_SCRATCH(n));
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

KFT_NOTRACE size_t kft_zcodec_pack(ZSTD_CCtx *cctx, void *dst, size_t cap,
				   const struct kft_rec *recs, uint32_t n, uint8_t *scratch)
{
	uint8_t *p = scratch;
	uint64_t prev = 0;
	size_t z;

	for (uint32_t i = 0; i < n; i++) {
		int64_t d = (int64_t)(recs[i].entry_depth - prev);

		prev = recs[i].entry_depth;
		p = put(p, (uint64_t)d << 1 ^ (uint64_t)(d >> 63));
		p = put(p, recs[i].dur);
		p = put(p, recs[i].site_flags);
	}
	z = ZSTD_compress2(cctx, dst, cap, scratch, (size_t)(p - scratch));
	return ZSTD_isError(z) ? 0 : z;
}

int kft_zcodec_unpack(ZSTD_DCtx *dctx, struct kft_rec *out, uint32_t n, const void *src,
		      size_t zsize, uint8_t *scratch)
{
	size_t got = ZSTD_decompressDCtx(dctx, scratch, KFT_ZCODEC_SCRATCH(n), src, zsize);
	const uint8_t *p = scratch, *end;
	uint64_t prev = 0;

	if (ZSTD_isError(got))
		return -1;
	end = scratch + got;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t d, dur, site;

		if (!get(&p, end, 64, &d) || !get(&p, end, 32, &dur) || !get(&p, end, 32, &site))
			return -1;
		prev += d >> 1 ^ -(d & 1);
		out[i].entry_depth = prev;
		out[i].dur = (uint32_t)dur;
		out[i].site_flags = (uint32_t)site;
	}
	return p == end ? 0 : -1;
}
