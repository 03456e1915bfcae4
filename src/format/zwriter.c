// SPDX-License-Identifier: LGPL-2.1
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/compiler.h"
#include "../common/populate.h"
#include "zwriter.h"

KFT_NOTRACE bool kft_zname(const char *name, char *out, size_t size)
{
	size_t len = strlen(name);

	if (len < 4 || len >= size || strcmp(name + len - 4, ".kft"))
		return false;
	memcpy(out, name, len - 1);
	out[len - 1] = 'z';
	out[len] = '\0';
	return true;
}

static KFT_NOTRACE int read_all(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	return n == (ssize_t)len ? 0 : -1;
}

/* The whole frame f at *off taken: the walk goes on past it. */
static KFT_NOTRACE void take_frame(struct kft_zwriter *w, const struct kft_zframe *f,
				   uint64_t *off)
{
	*off += sizeof(*f) + f->zsize;
	w->done += f->nrecs;
	w->sealed = f->nrecs < KFT_ZCHUNK_RECS;
}

/* The whole frames' walk from *off (records from w->done on), each header
 * read by itself: the few a resume hint leaves. */
static KFT_NOTRACE void walk_read(struct kft_zwriter *w, uint64_t size, uint64_t *off)
{
	struct kft_zframe f;

	while (!w->sealed && !read_all(w->z_fd, &f, sizeof(f), *off) &&
	       kft_zframe_whole(&f, size, *off, w->done))
		take_frame(w, &f, off);
}

/* The whole frames' walk from the first, through a map: one read each
 * cost more than the packing of what a program left for kft record. */
static KFT_NOTRACE int walk_all(struct kft_zwriter *w, uint64_t size, uint64_t *off)
{
	const char *map = mmap(NULL, size, PROT_READ, MAP_SHARED, w->z_fd, 0);

	if (map == MAP_FAILED)
		return -1;
	/* (in one call: a fault every 16 pages was 190 of fib's) */
	kft_populate((void *)map, size, MADV_POPULATE_READ);
	while (!w->sealed) {
		struct kft_zframe f;

		if (!kft_zframe_at(map, size, *off, w->done, &f))
			break;
		take_frame(w, &f, off);
	}
	munmap((void *)map, size);
	return 0;
}

/* Where the resume hint points, if it checks out: the frame there is
 * whole and its first record is the one the hint says. */
static KFT_NOTRACE bool hinted(struct kft_zwriter *w, const struct kft_zhdr *zh, uint64_t size,
			       uint64_t *off)
{
	uint64_t at = zh->resume >> 16;
	struct kft_zframe f;

	if (!zh->resume || at < sizeof(*zh) || read_all(w->z_fd, &f, sizeof(f), at) ||
	    kft_zresume_hint(at, f.first) != zh->resume || !kft_zframe_whole(&f, size, at, f.first))
		return false;
	*off = at;
	w->done = f.first;
	return true;
}

/* Find where the whole frames end, from the header's resume hint if it
 * checks out, else from the first; drop what follows. */
static KFT_NOTRACE int resume(struct kft_zwriter *w)
{
	struct kft_zhdr zh;
	struct stat st;
	uint64_t off = sizeof(zh), size;

	if (fstat(w->z_fd, &st))
		return -1;
	if ((uint64_t)st.st_size < sizeof(zh)) {
		memset(&zh, 0, sizeof(zh));
		memcpy(zh.magic, KFT_ZREC_MAGIC, sizeof(KFT_ZREC_MAGIC));
		zh.version = KFT_FORMAT_VERSION;
		zh.hdr_size = sizeof(zh);
		zh.chunk_recs = KFT_ZCHUNK_RECS;
		zh.codec = w->codec = KFT_ZCODEC_RICE;
		if (pwrite(w->z_fd, &zh, sizeof(zh), 0) != (ssize_t)sizeof(zh))
			return -1;
		w->zlen = sizeof(zh);
		return ftruncate(w->z_fd, (off_t)w->zlen);
	}
	size = (uint64_t)st.st_size;
	if (read_all(w->z_fd, &zh, sizeof(zh), 0))
		return -1;
	if (memcmp(zh.magic, KFT_ZREC_MAGIC, sizeof(KFT_ZREC_MAGIC)) ||
	    zh.hdr_size != sizeof(zh) || zh.chunk_recs != KFT_ZCHUNK_RECS ||
	    !w->p.codecs->writes(zh.codec)) {
		errno = EINVAL;		/* not ours to append to */
		return -1;
	}
	w->codec = zh.codec;
	if (hinted(w, &zh, size, &off))
		walk_read(w, size, &off);
	else if (walk_all(w, size, &off))
		return -1;
	w->zlen = off;
	return off < size ? ftruncate(w->z_fd, (off_t)off) : 0;
}

KFT_NOTRACE int kft_zwriter_open(struct kft_zwriter *w, int dirfd, const char *name,
				 const struct kft_zcodecs *codecs)
{
	struct kft_thread_hdr h;
	char zname[256];

	memset(w, 0, sizeof(*w));
	w->raw_fd = w->z_fd = -1;
	w->p.codecs = codecs;	/* (what the file may be continued in) */
	if (!kft_zname(name, zname, sizeof(zname))) {
		errno = EINVAL;
		return -1;
	}
	w->raw_fd = openat(dirfd, name, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (w->raw_fd < 0 || read_all(w->raw_fd, &h, sizeof(h), 0))
		goto fail;
	if (memcmp(h.magic, KFT_THREAD_MAGIC, sizeof(KFT_THREAD_MAGIC)) || h.overwrite ||
	    h.rec_size != sizeof(struct kft_rec)) {
		errno = EINVAL;		/* a ring is overwritten, never finished */
		goto fail;
	}
	w->records_off = h.records_off;
	w->ring = h.ring;
	w->z_fd = openat(dirfd, zname, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (w->z_fd < 0 || resume(w))
		goto fail;
	w->durable = 0;		/* punching again what was punched is harmless */
	if (kft_zpacker_init(&w->p, w->codec, codecs))
		goto fail;
	return 0;
fail:
	kft_zwriter_close(w);
	return -1;
}

KFT_NOTRACE int kft_zpacker_init(struct kft_zpacker *p, uint32_t codec,
				 const struct kft_zcodecs *codecs)
{
	size_t work = codecs->work_size(codec);

	memset(p, 0, sizeof(*p));
	p->codecs = codecs;
	p->codec = codec;
	p->out_cap = sizeof(struct kft_zframe) + codecs->bound(KFT_ZCHUNK_RECS);
	p->mem_size = (work + 64 + KFT_ZCHUNK_RECS * sizeof(struct kft_rec) +
		       KFT_ZCODEC_SCRATCH(KFT_ZCHUNK_RECS) + p->out_cap + 4095) & ~(size_t)4095;
	p->mem = mmap(NULL, p->mem_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		      0);
	if (p->mem == MAP_FAILED) {
		p->mem = NULL;
		return -1;
	}
	/* every page is written by the first frame: in at once */
	kft_populate(p->mem, p->mem_size, MADV_POPULATE_WRITE);
	p->buf = (struct kft_rec *)((char *)p->mem + ((work + 63) & ~(size_t)63));
	p->scratch = (uint8_t *)(p->buf + KFT_ZCHUNK_RECS);
	p->out = p->scratch + KFT_ZCODEC_SCRATCH(KFT_ZCHUNK_RECS);
	p->out_cap = p->mem_size - (size_t)(p->out - (unsigned char *)p->mem);
	if (work && !(p->cctx = codecs->init(p->mem, work))) {
		kft_zpacker_free(p);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

KFT_NOTRACE size_t kft_zpacker_pack(struct kft_zpacker *p, int raw_fd, uint64_t records_off,
				    uint64_t ring, uint64_t first, uint32_t n)
{
	uint64_t slot = kft_ring_slot(ring, first);

	if (!n || n > KFT_ZCHUNK_RECS || (ring && slot + n > ring) ||
	    read_all(raw_fd, p->buf, n * sizeof(struct kft_rec),
		     records_off + slot * sizeof(struct kft_rec)))
		return 0;
	return kft_zpacker_pack_recs(p, p->buf, first, n);
}

KFT_NOTRACE size_t kft_zpacker_pack_recs(struct kft_zpacker *p, const struct kft_rec *recs,
					 uint64_t first, uint32_t n)
{
	struct kft_zframe f = { .magic = KFT_ZFRAME_MAGIC, .first = first, .nrecs = n };
	size_t z;

	if (!n || n > KFT_ZCHUNK_RECS)
		return 0;
	z = p->codecs->pack(p->cctx, p->codec, p->out + sizeof(f), p->out_cap - sizeof(f), recs, n,
			    p->scratch);
	if (!z)
		return 0;
	f.zsize = (uint32_t)z;
	memcpy(p->out, &f, sizeof(f));
	return sizeof(f) + z;
}

KFT_NOTRACE void kft_zpacker_free(struct kft_zpacker *p)
{
	if (p->mem)
		munmap(p->mem, p->mem_size);
	memset(p, 0, sizeof(*p));
}

KFT_NOTRACE int kft_zwriter_append(struct kft_zwriter *w, const void *frame, size_t len, uint32_t n)
{
	struct kft_zframe f;
	uint64_t hint;

	memcpy(&f, frame, sizeof(f));
	if (w->sealed || f.first != w->done || f.nrecs != n)
		return -1;
	if (pwrite(w->z_fd, frame, len, (off_t)w->zlen) != (ssize_t)len) {
		/* a full disk: the frame is not there, the records stay raw */
		if (ftruncate(w->z_fd, (off_t)w->zlen))
			w->sealed = true;	/* and cannot be undone: add no more */
		return -1;
	}
	/* (after the frame: the hint names only frames that are whole; one
	 * not written leaves it on one before, still right) */
	hint = kft_zresume_hint(w->zlen, f.first);
	if (pwrite(w->z_fd, &hint, sizeof(hint), offsetof(struct kft_zhdr, resume)) !=
	    (ssize_t)sizeof(hint)) {
		/* a resume walks from an older frame, or from the first */
	}
	w->zlen += len;
	w->done += n;
	w->sealed = n < KFT_ZCHUNK_RECS;
	return 0;
}

KFT_NOTRACE int kft_zwriter_add(struct kft_zwriter *w, uint32_t n)
{
	size_t len;

	if (w->sealed)
		return -1;
	if (w->ring_map)
		len = kft_zpacker_pack_recs(&w->p, w->ring_map + kft_ring_slot(w->ring, w->done),
					    w->done, n);
	else
		len = kft_zpacker_pack(&w->p, w->raw_fd, w->records_off, w->ring, w->done, n);
	return len ? kft_zwriter_append(w, w->p.out, len, n) : -1;
}

KFT_NOTRACE int kft_zwriter_commit(struct kft_zwriter *w, bool sync)
{
	uint64_t from = w->records_off + w->durable * sizeof(struct kft_rec);

	if (w->durable == w->done)
		return 0;
	if (sync && fdatasync(w->z_fd))
		return -1;
	/* a file system that cannot punch keeps both copies: still right */
	if (!w->ring &&
	    fallocate(w->raw_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)from,
		      (off_t)((w->done - w->durable) * sizeof(struct kft_rec))) &&
	    errno != EOPNOTSUPP)
		return -1;
	w->durable = w->done;
	return 0;
}

KFT_NOTRACE void kft_zwriter_close(struct kft_zwriter *w)
{
	kft_zpacker_free(&w->p);
	if (w->z_fd >= 0)
		close(w->z_fd);
	if (w->raw_fd >= 0)
		close(w->raw_fd);
	w->z_fd = w->raw_fd = -1;
}
