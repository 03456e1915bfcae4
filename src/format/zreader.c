// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "../common/grow.h"
#include "../common/populate.h"
#include "zcodec.h"
#include "zreader.h"

#define SLOTS_PER_THREAD 8	/* the frame being read, and those of the calls
				 * open around it */
#define SLOTS_MIN 32

struct slot {
	const struct kft_zrecs *owner;
	uint64_t frame;
	uint64_t stamp;			/* last use, for eviction */
	struct kft_rec *recs;		/* KFT_ZCHUNK_RECS */
};

struct kft_zcache {
	ZSTD_DCtx *dctx;
	uint8_t *scratch;		/* a frame's numbers, decompressed */
	struct slot *slots;
	size_t nslots, cap;
	uint64_t clock;
};

struct kft_zrecs {
	struct kft_zcache *cache;
	const unsigned char *map;
	size_t size;
	uint64_t *off;			/* each frame's struct kft_zframe */
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
		    !(c->dctx = ZSTD_createDCtx())) {
			if (c)
				free(c->scratch);
			free(c);
			return kft_error_set(err, "out of memory");
		}
		kft_populate(c->scratch, KFT_ZCODEC_SCRATCH(KFT_ZCHUNK_RECS), MADV_POPULATE_WRITE);
		*cachep = c;
	}
	cap = c->cap ? c->cap + SLOTS_PER_THREAD : SLOTS_MIN;
	if (!(bigger = realloc(c->slots, cap * sizeof(*bigger))))
		return kft_error_set(err, "out of memory");
	c->slots = bigger;
	c->cap = cap;
	return 0;
}

/* The whole frames, from record 0 on: where each starts. */
static int index_frames(struct kft_zrecs *z, const char *path, struct kft_error *err)
{
	const struct kft_zhdr *zh = (const void *)z->map;
	uint64_t off = sizeof(*zh);
	size_t cap = 0;

	if (z->size < sizeof(*zh))
		goto done;	/* made, and the writer stopped before its header: no frames */
	if (memcmp(zh->magic, KFT_ZREC_MAGIC, sizeof(KFT_ZREC_MAGIC)))
		return kft_error_set(err, "%s: not a kft compressed-records file (bad magic)", path);
	if (zh->hdr_size != sizeof(*zh) || zh->chunk_recs != KFT_ZCHUNK_RECS ||
	    !kft_zcodec_known(zh->codec))
		return kft_error_set(err, "%s: unsupported compressed-records layout", path);
	z->codec = zh->codec;
	for (;;) {
		struct kft_zframe f;

		/* (none after a short frame, which ends the file) */
		if (!kft_zframe_at((const char *)z->map, z->size, off, z->count, &f) ||
		    (z->nframes && z->count % KFT_ZCHUNK_RECS))
			break;	/* a frame cut short (its records are still raw) */
		if (kft_grow((void **)&z->off, z->nframes, &cap, sizeof(*z->off), 64))
			return kft_error_set(err, "out of memory");
		z->off[z->nframes++] = off;
		z->count += f.nrecs;
		off += sizeof(f) + f.zsize;
	}
done:
	if (!(z->bad = calloc(z->nframes ? z->nframes : 1, 1)))
		return kft_error_set(err, "out of memory");
	return 0;
}

int kft_zrecs_open(const char *path, struct kft_zcache **cache, struct kft_zrecs **zp,
		   uint64_t *count, struct kft_error *err)
{
	size_t len = strlen(path);
	char *zpath = strdup(path);
	struct kft_zrecs *z = NULL;
	struct stat st;
	int fd = -1;

	*zp = NULL;
	*count = 0;
	if (!zpath)
		return kft_error_set(err, "out of memory");
	zpath[len - 1] = 'z';		/* .kft -> .kfz */
	fd = open(zpath, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int ret = errno == ENOENT ? 0 : kft_error_set(err, "%s: %s", zpath, strerror(errno));

		free(zpath);
		return ret;
	}
	if (!(z = calloc(1, sizeof(*z)))) {
		kft_error_set(err, "out of memory");
		goto fail;
	}
	if (fstat(fd, &st)) {
		kft_error_set(err, "%s: %s", zpath, strerror(errno));
		goto fail;
	}
	z->size = (size_t)st.st_size;
	if (z->size) {
		z->map = mmap(NULL, z->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (z->map == MAP_FAILED) {
			z->map = NULL;
			kft_error_set(err, "%s: cannot map: %s", zpath, strerror(errno));
			goto fail;
		}
		/* the frames' index reads a header in every few pages */
		kft_populate(z->map, z->size, MADV_POPULATE_READ);
	}
	if (index_frames(z, zpath, err) || cache_grow(cache, err))
		goto fail;
	z->cache = *cache;
	close(fd);
	free(zpath);
	*zp = z;
	*count = z->count;
	return 0;
fail:
	kft_zrecs_close(z);
	close(fd);
	free(zpath);
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

static void load(struct kft_zrecs *z, struct slot *s, uint64_t k)
{
	struct kft_zframe f;

	memcpy(&f, z->map + z->off[k], sizeof(f));
	s->owner = z;
	s->frame = k;
	if (kft_zcodec_unpack(z->cache->dctx, z->codec, s->recs, f.nrecs, z->map + z->off[k] + sizeof(f),
			      f.zsize, z->cache->scratch)) {
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
	if (z->cache)
		for (size_t j = 0; j < z->cache->nslots; j++)
			if (z->cache->slots[j].owner == z)
				z->cache->slots[j].owner = NULL;
	if (z->map)
		munmap((void *)z->map, z->size);
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
	free(c);
}
