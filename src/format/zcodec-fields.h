/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A record's fields as the codecs see them (zcodec.c, zcodec-rice.c):
 * split from the packed record and joined back exactly, with the small
 * helpers both use for signed differences, durations and little-endian
 * numbers in a frame.
 */
#ifndef KFT_ZCODEC_FIELDS_H
#define KFT_ZCODEC_FIELDS_H

#include <stdint.h>

#include "../common/compiler.h"
#include "trace-format.h"

static inline KFT_NOTRACE uint64_t zigzag(int64_t d)
{
	return (uint64_t)d << 1 ^ (uint64_t)(d >> 63);
}

static inline KFT_NOTRACE int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1 ^ -(v & 1));
}

/* A record's fields as the columns code them: the entry word and the site
 * word share the entry time (55 bits) and the depth (18 bits) between
 * them (kft_rec_pack); any bits a record holds split and join exactly. */
struct rec_fields {
	uint64_t entry, depth;
	uint32_t dur, site;
};

#define SITE_WORD_BITS 23	/* site and flags: what the site word keeps of its own */

static inline KFT_NOTRACE void rec_split(const struct kft_rec *r, struct rec_fields *f)
{
	f->entry = r->entry_depth >> 16 | (uint64_t)(r->site_flags >> 25) << 48;
	f->depth = (r->entry_depth & 0xffff) | (uint64_t)(r->site_flags >> 23 & 3) << 16;
	f->dur = r->dur;
	f->site = r->site_flags & ((1U << SITE_WORD_BITS) - 1);
}

static inline KFT_NOTRACE void rec_join(const struct rec_fields *f, struct kft_rec *r)
{
	r->entry_depth = f->entry << 16 | (f->depth & 0xffff);
	r->dur = f->dur;
	r->site_flags = f->site | (uint32_t)(f->depth >> 16) << 23 | (uint32_t)(f->entry >> 48) << 25;
}

/* What an end is counted with of a duration word: a plain duration's
 * nanoseconds, 0 for the rare others (long, unfinished, stack watch). */
static inline KFT_NOTRACE uint64_t dur_part(uint32_t dur)
{
	return dur & 0x80000000U ? 0 : dur;
}

/* A frame's little-endian numbers, bytes long. */
static inline KFT_NOTRACE void put_le(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline KFT_NOTRACE uint64_t get_le(const uint8_t *p, int bytes)
{
	uint64_t v = 0;

	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

#endif
