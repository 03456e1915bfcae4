// SPDX-License-Identifier: LGPL-2.1
/*
 * KFT_ZCODEC_RICE (zcodec-rice.h). Both sides keep the same model of the
 * frame so far and update it after each record (model_update), besides
 * the depth and end of the record before:
 *
 *  - at each depth, the two sites that ended there last (a site code
 *    says newest, the one before, or another, written out);
 *  - at each depth, the entry of the first call that ended there since
 *    the last call one level up ended, if one did.
 *
 * A record whose next depth has such calls is their parent ("enclosing"
 * form): it is written as the gap from its entry to its first child's
 * and from the record before's end to its own end, both a few hook
 * times, and its duration follows from them. Any other ("plain" form) is
 * written as the gap from the record before's end to its entry and its
 * duration word. A site code of OTHER_PLAIN asks for the plain form where
 * the model would have the enclosing one (a long or unfinished call, whose
 * duration word is no plain difference).
 *
 * Each field is Rice-coded with the parameter that suits the frame, less
 * the frame's least value of it. The model tells depths apart modulo
 * DEPTHS: deeper calls share a slot, which costs bits, never exactness.
 */
#include <string.h>

#include "zcodec.h"
#include "zcodec-fields.h"
#include "zcodec-rice.h"

#define DEPTHS 1024		/* depths the model tells apart */
#define QMAX 24			/* a quotient this large: the whole value follows */
#define KMAX 31			/* so that a code is at most 56 bits */
#define PAD 128			/* zero bytes after the codes, for the reader's look-ahead */
#define REC_MAX 64		/* the most bytes one record's codes take, and room for a store */
#define NO_SITE 0xffffffffU	/* an empty slot of the model (sites have 23 bits) */
#define NONE UINT64_MAX		/* and of first_child (entries have 55) */
#define SAMPLE 4		/* records the Rice parameters are chosen from: one in */

/* The loops gain a sixth from BMI2's shifts where the CPU has them: the
 * loader picks the build (an ifunc). */
#if defined(__x86_64__) && !defined(__clang__)	/* (clang wants it on every declaration) */
#define CLONED __attribute__((target_clones("default", "arch=x86-64-v3")))
#else
#define CLONED
#endif

enum { TAG_RAW, TAG_CODED };
/* the fields: the step (zigzag depth change << 2 | site code), the site when
 * written out, and the plain and the enclosing form's two times */
enum { F_STEP, F_SITE, F_GAP, F_DUR, F_LEAD, F_TAIL, NFIELDS };
enum { NEWEST, BEFORE, OTHER, OTHER_PLAIN };

#define HDR_SIZE (1 + 4 + 8 + NFIELDS * 9)

struct model {
	uint32_t recent[DEPTHS][2];	/* newest first */
	uint64_t first_child[DEPTHS];	/* NONE: no call ended there since */
};

/* What the encoder keeps of a record between its passes. */
struct item {
	uint64_t t1, t2;		/* gap and duration, or lead and tail */
	uint32_t step_form;		/* the step << 1 | enclosing */
	uint32_t site;
};

#define MODEL_ROOM ((sizeof(struct model) + 63) & ~(size_t)63)
_Static_assert(MODEL_ROOM + 64 <= 20480, "KFT_RICE_SCRATCH's fixed part holds the model");
_Static_assert(sizeof(struct item) == 24, "KFT_RICE_SCRATCH's part per record holds an item");

static KFT_NOTRACE struct model *model_at(uint8_t *scratch)
{
	return (struct model *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
}

static KFT_NOTRACE void model_reset(struct model *m)
{
	memset(m->recent, 0xff, sizeof(m->recent));
	memset(m->first_child, 0xff, sizeof(m->first_child));
}

/* The entry of the first call that ended at the next depth since the
 * last at this depth or above: a record's first child, or NONE. */
static inline KFT_NOTRACE uint64_t first_child(const struct model *m, uint64_t depth)
{
	return m->first_child[(depth + 1) % DEPTHS];
}

/* The record f, its site coded as code, has ended. */
static inline KFT_NOTRACE void model_update(struct model *m, const struct rec_fields *f, int code)
{
	uint32_t *recent = m->recent[f->depth % DEPTHS];
	uint64_t *first = &m->first_child[f->depth % DEPTHS];

	if (code != NEWEST) {
		recent[1] = recent[0];
		recent[0] = f->site;
	}
	m->first_child[(f->depth + 1) % DEPTHS] = NONE;
	if (*first == NONE)
		*first = f->entry;
}

KFT_NOTRACE uint32_t kft_rice_checksum(const void *p_, size_t len)
{
	const uint8_t *p = p_;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;

	for (; len >= 8; p += 8, len -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 29;
	}
	for (; len; p++, len--)
		h = (h ^ *p) * 0x100000001b3ULL;
	return (uint32_t)(h ^ h >> 32);
}

/* ---- writing ----------------------------------------------------------- */

struct bits_out {
	uint8_t *p;
	uint64_t acc;		/* bits not yet whole bytes behind p */
	unsigned int n;		/* how many (fewer than 8) */
};

/* len bits of v (len at most 56, v below 2^len); 8 bytes at p are written. */
static inline KFT_NOTRACE void put_bits(struct bits_out *w, uint64_t v, unsigned int len)
{
	w->acc |= v << w->n;
	w->n += len;
	memcpy(w->p, &w->acc, 8);
	w->p += w->n >> 3;
	w->acc >>= w->n & ~7U;
	w->n &= 7;
}

/* v's Rice code as a number and its length, if it takes fewer than QMAX
 * zeros; false if not. */
static inline KFT_NOTRACE bool rice_code(uint64_t v, unsigned int k, uint64_t *code,
					 unsigned int *len)
{
	uint64_t q = v >> k;

	*code = ((v & ((1ULL << k) - 1)) << 1 | 1) << (q & 63);
	*len = (unsigned int)q + 1 + k;
	return q < QMAX;
}

/* v's Rice code: v >> k as that many zeros and a one, then v's low k
 * bits; a quotient of QMAX or more as QMAX zeros and the whole value. */
static inline KFT_NOTRACE void put_rice(struct bits_out *w, uint64_t v, unsigned int k)
{
	uint64_t code;
	unsigned int len;

	if (likely(rice_code(v, k, &code, &len))) {
		put_bits(w, code, len);
	} else {
		put_bits(w, 0, QMAX);
		put_bits(w, v & 0xffffffffU, 32);
		put_bits(w, v >> 32, 32);
	}
}

/* A record's three usual codes, in one put when they fit in one. */
static inline KFT_NOTRACE void put_record(struct bits_out *w, uint64_t a, unsigned int ka,
					  uint64_t b, unsigned int kb, uint64_t c, unsigned int kc)
{
	uint64_t ca, cb, cc;
	unsigned int la, lb, lc;
	/* (all three worked out, then one test: fewer branches) */
	int ok = (int)rice_code(a, ka, &ca, &la) & (int)rice_code(b, kb, &cb, &lb) &
		 (int)rice_code(c, kc, &cc, &lc);

	if (likely(ok && la + lb + lc <= 56)) {
		put_bits(w, ca | cb << la | cc << (la + lb), la + lb + lc);
		return;
	}
	put_rice(w, a, ka);
	put_rice(w, b, kb);
	put_rice(w, c, kc);
}

static inline KFT_NOTRACE unsigned int bit_length(uint64_t v)
{
	return v ? 64 - (unsigned int)__builtin_clzll(v) : 0;
}

/* The Rice parameter that codes a field whose values' bit lengths are
 * counted in hist shortest (a value of b bits taken as 1.5 * 2^(b-1)). */
static KFT_NOTRACE unsigned int best_k(const uint32_t hist[65])
{
	unsigned int used[65], nused = 0, best = 0;
	uint64_t least = UINT64_MAX;

	for (unsigned int b = 0; b <= 64; b++)
		if (hist[b])
			used[nused++] = b;
	for (unsigned int k = 0; k <= KMAX; k++) {
		uint64_t cost = 0;

		for (unsigned int i = 0; i < nused; i++) {
			unsigned int b = used[i];
			uint64_t q = b <= k ? 0 : b - 1 - k >= 5 ? QMAX : (3ULL << (b - 1 - k)) >> 1;

			cost += hist[b] * (q < QMAX ? q + 1 + k : QMAX + 64);
		}
		if (cost < least) {
			least = cost;
			best = k;
		}
	}
	return best;
}

/* The records as raw, checked: the frame when coding would not save. */
static KFT_NOTRACE size_t pack_raw(uint8_t *dst, size_t cap, const struct kft_rec *recs,
				   uint32_t n)
{
	size_t len = (size_t)n * sizeof(*recs);

	if (cap < 5 + len)
		return 0;
	dst[0] = TAG_RAW;
	memcpy(dst + 5, recs, len);
	put_le(dst + 1, kft_rice_checksum(dst + 5, len), 4);
	return 5 + len;
}

/* The time fields' slot in least[] and k[]: F_GAP, F_DUR or F_LEAD, F_TAIL. */
#define TIMES(enclosing) (F_GAP + 2 * (enclosing))

CLONED KFT_NOTRACE size_t kft_rice_pack(void *dst_, size_t cap, const struct kft_rec *recs, uint32_t n,
				 uint8_t *scratch)
{
	struct model *m = model_at(scratch);
	struct item *items = (struct item *)((uint8_t *)m + MODEL_ROOM);
	uint8_t *dst = dst_;
	uint64_t least[NFIELDS] = { 0 }, first_entry, prev_depth, prev_end;
	uint64_t least_gap = UINT64_MAX, least_dur = UINT64_MAX, least_lead = UINT64_MAX,
		 least_tail = UINT64_MAX;
	uint32_t hist[NFIELDS][65];
	unsigned int k[NFIELDS];
	struct rec_fields f;
	struct bits_out w;
	size_t room;

	if (!n)
		return 0;
	rec_split(&recs[0], &f);
	first_entry = f.entry;
	model_reset(m);
	/* the model's view of each record, and the time fields' least values
	 * (kept in locals: this loop is most of the helper's work) */
	prev_depth = 0;
	prev_end = first_entry;
	for (uint32_t i = 0; i < n; i++) {
		struct item *it = &items[i];
		const uint32_t *recent;
		uint64_t end, t1, t2, lead;
		bool enclosing;
		int code;

		rec_split(&recs[i], &f);
		recent = m->recent[f.depth % DEPTHS];
		code = f.site == recent[0] ? NEWEST : f.site == recent[1] ? BEFORE : OTHER;
		lead = first_child(m, f.depth);
		enclosing = lead != NONE;
		if (unlikely(enclosing && (f.dur & 0x80000000U))) {
			code = OTHER_PLAIN;
			enclosing = false;
		}
		end = f.entry + dur_part(f.dur);
		t1 = zigzag((int64_t)(enclosing ? lead - f.entry : f.entry - prev_end));
		t2 = enclosing ? zigzag((int64_t)(end - prev_end)) : f.dur;
		least_gap = !enclosing && t1 < least_gap ? t1 : least_gap;
		least_dur = !enclosing && t2 < least_dur ? t2 : least_dur;
		least_lead = enclosing && t1 < least_lead ? t1 : least_lead;
		least_tail = enclosing && t2 < least_tail ? t2 : least_tail;
		it->t1 = t1;
		it->t2 = t2;
		it->step_form = (uint32_t)zigzag((int64_t)(f.depth - prev_depth)) << 3 |
				(uint32_t)code << 1 | (uint32_t)enclosing;
		it->site = f.site;
		model_update(m, &f, code);
		prev_depth = f.depth;
		prev_end = end;
	}
	least[F_GAP] = least_gap;
	least[F_DUR] = least_dur;
	least[F_LEAD] = least_lead;
	least[F_TAIL] = least_tail;
	/* each field's parameter, from its values' sizes above the least
	 * (every SAMPLE-th record's tell them well enough) */
	memset(hist, 0, sizeof(hist));
	for (uint32_t i = 0; i < n; i += n < 4 * SAMPLE ? 1 : SAMPLE) {
		const struct item *it = &items[i];
		unsigned int code = it->step_form >> 1 & 3, times = TIMES(it->step_form & 1);

		hist[F_STEP][bit_length(it->step_form >> 1)]++;
		if (code >= OTHER)
			hist[F_SITE][bit_length(it->site)]++;
		hist[times][bit_length(it->t1 - least[times])]++;
		hist[times + 1][bit_length(it->t2 - least[times + 1])]++;
	}
	/* no larger than the records raw, and within cap */
	room = 5 + (size_t)n * sizeof(*recs);
	if (room > cap)
		room = cap;
	if (room < HDR_SIZE + REC_MAX)
		return pack_raw(dst, cap, recs, n);
	dst[0] = TAG_CODED;
	put_le(dst + 5, first_entry, 8);
	for (int i = 0; i < NFIELDS; i++) {
		if (least[i] == UINT64_MAX)
			least[i] = 0;	/* (no value of it in the frame) */
		k[i] = best_k(hist[i]);
		dst[13 + 9 * i] = (uint8_t)k[i];
		put_le(dst + 14 + 9 * i, least[i], 8);
	}
	w.p = dst + HDR_SIZE;
	w.acc = 0;
	w.n = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct item *it = &items[i];
		unsigned int code = it->step_form >> 1 & 3, times = TIMES(it->step_form & 1);

		if ((size_t)(w.p - dst) + REC_MAX > room)
			return pack_raw(dst, cap, recs, n);
		put_record(&w, it->step_form >> 1, k[F_STEP], it->t1 - least[times], k[times],
			   it->t2 - least[times + 1], k[times + 1]);
		if (unlikely(code >= OTHER))
			put_rice(&w, it->site, k[F_SITE]);
	}
	w.p += w.n ? 1 : 0;
	put_le(dst + 1, kft_rice_checksum(dst + 5, (size_t)(w.p - dst) - 5), 4);
	return (size_t)(w.p - dst);
}

/* ---- reading ------------------------------------------------------------ */

/* The 57 or more bits from bit pos on (PAD zero bytes follow the codes). */
static inline uint64_t window(const uint8_t *buf, uint64_t pos)
{
	uint64_t w;

	memcpy(&w, buf + (pos >> 3), 8);
	return w >> (pos & 7);
}

static inline uint64_t get_rice(const uint8_t *buf, uint64_t *pos, unsigned int k, uint64_t least)
{
	uint64_t w = window(buf, *pos), v;

	if (likely(w & ((1U << QMAX) - 1))) {
		unsigned int q = (unsigned int)__builtin_ctzll(w);

		v = (uint64_t)q << k | (w >> (q + 1) & ((1ULL << k) - 1));
		*pos += q + 1 + k;
	} else {
		*pos += QMAX;
		v = window(buf, *pos) & 0xffffffffU;
		*pos += 32;
		v |= (window(buf, *pos) & 0xffffffffU) << 32;
		*pos += 32;
	}
	return v + least;
}

CLONED int kft_rice_unpack(struct kft_rec *out, uint32_t n, const void *src_, size_t size,
		    uint8_t *scratch)
{
	const uint8_t *src = src_;
	struct model *m = model_at(scratch);
	uint8_t *codes = (uint8_t *)m + MODEL_ROOM;
	uint64_t least[NFIELDS], pos = 0, nbits, prev_depth = 0, prev_end;
	unsigned int k[NFIELDS];
	size_t len;

	if (size < 5 || size > KFT_RICE_BOUND(n) ||
	    get_le(src + 1, 4) != kft_rice_checksum(src + 5, size - 5))
		return -1;
	if (src[0] == TAG_RAW) {
		if (size != 5 + (size_t)n * sizeof(*out))
			return -1;
		memcpy(out, src + 5, size - 5);
		return 0;
	}
	if (src[0] != TAG_CODED || size < HDR_SIZE)
		return -1;
	model_reset(m);
	prev_end = get_le(src + 5, 8);
	for (int i = 0; i < NFIELDS; i++) {
		k[i] = src[13 + 9 * i];
		least[i] = get_le(src + 14 + 9 * i, 8);
		if (k[i] > KMAX)
			return -1;
	}
	len = size - HDR_SIZE;
	memcpy(codes, src + HDR_SIZE, len);
	memset(codes + len, 0, PAD);
	nbits = (uint64_t)len * 8;
	for (uint32_t i = 0; i < n; i++) {
		struct rec_fields f;
		uint64_t end, t1, t2, step, code, lead;
		const uint32_t *recent;

		step = get_rice(codes, &pos, k[F_STEP], least[F_STEP]);
		f.depth = prev_depth + (uint64_t)unzigzag(step >> 2);
		code = step & 3;
		lead = first_child(m, f.depth);
		if (code != OTHER_PLAIN && lead != NONE) {
			t1 = get_rice(codes, &pos, k[F_LEAD], least[F_LEAD]);
			t2 = get_rice(codes, &pos, k[F_TAIL], least[F_TAIL]);
			f.entry = lead - (uint64_t)unzigzag(t1);
			end = prev_end + (uint64_t)unzigzag(t2);
			if (end - f.entry >= 0x80000000U)
				return -1;
			f.dur = (uint32_t)(end - f.entry);
		} else {
			t1 = get_rice(codes, &pos, k[F_GAP], least[F_GAP]);
			t2 = get_rice(codes, &pos, k[F_DUR], least[F_DUR]);
			if (t2 >> 32)
				return -1;
			f.entry = prev_end + (uint64_t)unzigzag(t1);
			f.dur = (uint32_t)t2;
			end = f.entry + dur_part(f.dur);
		}
		recent = m->recent[f.depth % DEPTHS];
		if (code == NEWEST || code == BEFORE) {
			f.site = recent[code];
			if (f.site == NO_SITE)
				return -1;
		} else {
			uint64_t site = get_rice(codes, &pos, k[F_SITE], least[F_SITE]);

			if (site >> SITE_WORD_BITS)
				return -1;
			f.site = (uint32_t)site;
		}
		if (pos > nbits || f.depth >> 18 || f.entry >> 55)
			return -1;
		rec_join(&f, &out[i]);
		model_update(m, &f, (int)code);
		prev_depth = f.depth;
		prev_end = end;
	}
	return (pos + 7) / 8 == len ? 0 : -1;
}

/* The runtime's codecs: Rice alone (zcodec.h). */
static KFT_NOTRACE bool rice_writes(uint32_t codec)
{
	return codec == KFT_ZCODEC_RICE;
}

static KFT_NOTRACE size_t rice_work_size(uint32_t codec)
{
	(void)codec;
	return 0;
}

static KFT_NOTRACE void *rice_init(void *work, size_t size)
{
	(void)size;
	return work;	/* (never called: Rice needs no context) */
}

static KFT_NOTRACE size_t rice_bound(uint32_t n)
{
	return KFT_RICE_BOUND(n);
}

static KFT_NOTRACE size_t rice_pack(void *cctx, uint32_t codec, void *dst, size_t cap,
				    const struct kft_rec *recs, uint32_t n, uint8_t *scratch)
{
	(void)cctx;
	return codec == KFT_ZCODEC_RICE ? kft_rice_pack(dst, cap, recs, n, scratch) : 0;
}

const struct kft_zcodecs kft_zcodecs_rice = {
	.writes = rice_writes, .work_size = rice_work_size, .init = rice_init,
	.bound = rice_bound, .pack = rice_pack,
};
