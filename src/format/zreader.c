// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "../common/file-io.h"
#include "../common/grow.h"
#include "../common/populate.h"
#include "zcodec.h"
#include "zreader.h"

#define SLOTS_PER_THREAD 8	/* the frame being read, and those of the calls
				 * open around it */
#define SLOTS_MIN 32
#define OPEN_FILES 16		/* .kfz files kept open at once, whatever the
				 * threads: the least recently read is closed */

struct slot {
	const struct kft_zrecs *owner;
	uint64_t frame;
	uint64_t stamp;			/* last use, for eviction */
	struct kft_rec *recs;		/* KFT_ZCHUNK_RECS */
};

struct kft_zcache {
	ZSTD_DCtx *dctx;
	uint8_t *scratch;		/* a frame's numbers, decompressed */
	uint8_t *in;			/* a frame as the file holds it */
	size_t in_size;
	struct kft_zrecs *open[OPEN_FILES];	/* those whose fd is open */
	struct slot *slots;
	size_t nslots, cap;
	uint64_t clock;
};

/* A .kfz is read a frame at a time (pread), never mapped: its pages do
 * not stay in the reader's memory, whatever the trace's length. */
struct kft_zrecs {
	struct kft_zcache *cache;
	char *path;
	int fd;				/* -1: closed (reopened when read) */
	uint64_t used;			/* the cache's clock when last read */
	uint64_t *off;			/* each frame's struct kft_zframe, and
					 * off[nframes]: where the last ends */
	size_t nframes;
	uint64_t count;
	unsigned char *bad;		/* per frame: found corrupt */
	uint64_t damaged;
	size_t hot;			/* 1 + the slot last read, or 0 (a place,
					 * not a pointer: the slots move as the
					 * cache grows for each thread opened) */
	uint32_t codec;			/* KFT_ZCODEC_* */
};

static int cache_grow(struct kft_zcache **cachep, struct kft_error *err)
{
	struct kft_zcache *c = *cachep;
	size_t cap;
	struct slot *bigger;

	if (!c) {
		if (!(c = calloc(1, sizeof(*c))) ||
		    !(c->scratch = malloc(KFT_ZCODEC_SCRATCH(KFT_ZCHUNK_RECS))) ||
		    !(c->in = malloc(sizeof(struct kft_zframe) + kft_zcodec_bound(KFT_ZCHUNK_RECS))) ||
		    !(c->dctx = ZSTD_createDCtx())) {
			if (c) {
				free(c->scratch);
				free(c->in);
			}
			free(c);
			return kft_error_set(err, "out of memory");
		}
		kft_populate(c->scratch, KFT_ZCODEC_SCRATCH(KFT_ZCHUNK_RECS), MADV_POPULATE_WRITE);
		c->in_size = sizeof(struct kft_zframe) + kft_zcodec_bound(KFT_ZCHUNK_RECS);
		*cachep = c;
	}
	cap = c->cap ? c->cap + SLOTS_PER_THREAD : SLOTS_MIN;
	if (!(bigger = realloc(c->slots, cap * sizeof(*bigger))))
		return kft_error_set(err, "out of memory");
	c->slots = bigger;
	c->cap = cap;
	return 0;
}

/* The whole frames of a file of size bytes, from record 0 on: where each
 * starts (a header read a frame). */
static int index_frames(struct kft_zrecs *z, uint64_t size, struct kft_error *err)
{
	struct kft_zhdr zh;
	uint64_t off = sizeof(zh);
	size_t cap = 0;

	if (size < sizeof(zh) || kft_file_io(z->fd, &zh, sizeof(zh), 0, false))
		goto done;	/* made, and the writer stopped before its header: no frames */
	if (memcmp(zh.magic, KFT_ZREC_MAGIC, sizeof(KFT_ZREC_MAGIC)))
		return kft_error_set(err, "%s: not a kft compressed-records file (bad magic)", z->path);
	if (zh.hdr_size != sizeof(zh) || zh.chunk_recs != KFT_ZCHUNK_RECS ||
	    !kft_zcodec_known(zh.codec))
		return kft_error_set(err, "%s: unsupported compressed-records layout", z->path);
	z->codec = zh.codec;
	for (;;) {
		struct kft_zframe f;

		/* (none after a short frame, which ends the file) */
		if (kft_file_io(z->fd, &f, sizeof(f), off, false) ||
		    !kft_zframe_whole(&f, size, off, z->count) ||
		    (z->nframes && z->count % KFT_ZCHUNK_RECS))
			break;	/* a frame cut short (its records are still raw) */
		if (kft_grow((void **)&z->off, z->nframes + 1, &cap, sizeof(*z->off), 64))
			return kft_error_set(err, "out of memory");
		z->off[z->nframes++] = off;
		z->count += f.nrecs;
		off += sizeof(f) + f.zsize;
	}
done:
	if (z->off)
		z->off[z->nframes] = off;
	if (!(z->bad = calloc(z->nframes ? z->nframes : 1, 1)))
		return kft_error_set(err, "out of memory");
	return 0;
}

/* Whether z's file is open to read; the least recently read of those
 * open is closed when OPEN_FILES are. */
static bool zfile_open(struct kft_zrecs *z)
{
	struct kft_zcache *c = z->cache;
	size_t pick = 0;

	if (z->fd >= 0)
		return true;
	for (size_t i = 0; i < OPEN_FILES; i++) {
		if (!c->open[i]) {
			pick = i;
			break;
		}
		if (c->open[i]->used < c->open[pick]->used)
			pick = i;
	}
	if (c->open[pick]) {
		close(c->open[pick]->fd);
		c->open[pick]->fd = -1;
	}
	c->open[pick] = NULL;
	z->fd = open(z->path, O_RDONLY | O_CLOEXEC);
	if (z->fd < 0)
		return false;
	c->open[pick] = z;
	return true;
}

int kft_zrecs_open(const char *path, struct kft_zcache **cache, struct kft_zrecs **zp,
		   uint64_t *count, struct kft_error *err)
{
	size_t len = strlen(path);
	struct kft_zrecs *z;
	struct stat st;

	*zp = NULL;
	*count = 0;
	if (!(z = calloc(1, sizeof(*z))) || !(z->path = strdup(path))) {
		free(z);
		return kft_error_set(err, "out of memory");
	}
	z->path[len - 1] = 'z';		/* .kft -> .kfz */
	z->fd = open(z->path, O_RDONLY | O_CLOEXEC);
	if (z->fd < 0) {
		int ret = errno == ENOENT ? 0 : kft_error_set(err, "%s: %s", z->path, strerror(errno));

		kft_zrecs_close(z);
		return ret;
	}
	if (fstat(z->fd, &st)) {
		kft_error_set(err, "%s: %s", z->path, strerror(errno));
		goto fail;
	}
	if (index_frames(z, (uint64_t)st.st_size, err) || cache_grow(cache, err))
		goto fail;
	z->cache = *cache;
	/* open again when first read: a trace of many threads holds few */
	close(z->fd);
	z->fd = -1;
	*zp = z;
	*count = z->count;
	return 0;
fail:
	kft_zrecs_close(z);
	return -1;
}

static struct slot *victim(struct kft_zcache *c)
{
	struct slot *best;

	if (c->nslots < c->cap) {
		best = &c->slots[c->nslots];
		if (!(best->recs = malloc(KFT_ZCHUNK_RECS * sizeof(*best->recs))))
			return NULL;
		/* a frame fills it whole */
		kft_populate(best->recs, KFT_ZCHUNK_RECS * sizeof(*best->recs), MADV_POPULATE_WRITE);
		c->nslots++;
		return best;
	}
	best = &c->slots[0];
	for (size_t i = 1; i < c->nslots; i++)
		if (c->slots[i].stamp < best->stamp)
			best = &c->slots[i];
	return best;
}

/* A record that names no site: what a corrupt frame reads as. */
static const struct kft_rec nothing = { .site_flags = KFT_SITE_MAX };

/* Frame k's header and bytes into *f and the cache's in: whether they
 * are there as the index found them. */
static bool read_frame(struct kft_zrecs *z, uint64_t k, struct kft_zframe *f)
{
	struct kft_zcache *c = z->cache;
	uint64_t len = z->off[k + 1] - z->off[k];

	if (len > c->in_size || !zfile_open(z) || kft_file_io(z->fd, c->in, len, z->off[k], false))
		return false;
	memcpy(f, c->in, sizeof(*f));
	return kft_zframe_whole(f, len, 0, k * KFT_ZCHUNK_RECS) && f->zsize == len - sizeof(*f);
}

static void load(struct kft_zrecs *z, struct slot *s, uint64_t k)
{
	struct kft_zcache *c = z->cache;
	struct kft_zframe f;

	s->owner = z;
	s->frame = k;
	z->used = c->clock;
	if (!read_frame(z, k, &f) ||
	    kft_zcodec_unpack(c->dctx, z->codec, s->recs, f.nrecs, c->in + sizeof(f), f.zsize,
			      c->scratch)) {
		for (uint32_t i = 0; i < KFT_ZCHUNK_RECS; i++)
			s->recs[i] = nothing;
		if (!z->bad[k]++)
			z->damaged++;
	}
}

const struct kft_rec *kft_zrecs_get(struct kft_zrecs *z, uint64_t i)
{
	uint64_t k = i / KFT_ZCHUNK_RECS;
	struct kft_zcache *c = z->cache;
	struct slot *s = z->hot ? &c->slots[z->hot - 1] : NULL;

	if (!s || s->owner != z || s->frame != k) {
		s = NULL;
		for (size_t j = 0; j < c->nslots; j++)
			if (c->slots[j].owner == z && c->slots[j].frame == k) {
				s = &c->slots[j];
				break;
			}
		if (!s) {
			if (!(s = victim(c)))
				return &nothing;	/* out of memory */
			load(z, s, k);
		}
		z->hot = (size_t)(s - c->slots) + 1;
	}
	s->stamp = ++c->clock;
	return &s->recs[i % KFT_ZCHUNK_RECS];
}

uint64_t kft_zrecs_damaged(const struct kft_zrecs *z)
{
	return z->damaged;
}

void kft_zrecs_close(struct kft_zrecs *z)
{
	if (!z)
		return;
	if (z->cache) {
		for (size_t j = 0; j < z->cache->nslots; j++)
			if (z->cache->slots[j].owner == z)
				z->cache->slots[j].owner = NULL;
		for (size_t i = 0; i < OPEN_FILES; i++)
			if (z->cache->open[i] == z)
				z->cache->open[i] = NULL;
	}
	if (z->fd >= 0)
		close(z->fd);
	free(z->path);
	free(z->off);
	free(z->bad);
	free(z);
}

void kft_zcache_free(struct kft_zcache *c)
{
	if (!c)
		return;
	for (size_t j = 0; j < c->nslots; j++)
		free(c->slots[j].recs);
	free(c->slots);
	ZSTD_freeDCtx(c->dctx);
	free(c->scratch);
	free(c->in);
	free(c);
}
