// SPDX-License-Identifier: LGPL-2.1
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "zwriter.h"

#define NOTRACE __attribute__((no_instrument_function))

NOTRACE bool kft_zname(const char *name, char *out, size_t size)
{
	size_t len = strlen(name);

	if (len < 4 || len >= size || strcmp(name + len - 4, ".kft"))
		return false;
	memcpy(out, name, len - 1);
	out[len - 1] = 'z';
	out[len] = '\0';
	return true;
}

static NOTRACE int read_all(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	return n == (ssize_t)len ? 0 : -1;
}

/* Find where the whole frames end; drop what follows. */
static NOTRACE int resume(struct kft_zwriter *w)
{
	struct kft_zhdr zh;
	struct stat st;
	uint64_t off = sizeof(zh);

	if (fstat(w->z_fd, &st))
		return -1;
	if ((uint64_t)st.st_size < sizeof(zh)) {
		memset(&zh, 0, sizeof(zh));
		memcpy(zh.magic, KFT_ZREC_MAGIC, sizeof(KFT_ZREC_MAGIC));
		zh.version = KFT_FORMAT_VERSION;
		zh.hdr_size = sizeof(zh);
		zh.chunk_recs = KFT_ZCHUNK_RECS;
		zh.codec = KFT_ZCODEC_ZSTD_DELTA;
		if (pwrite(w->z_fd, &zh, sizeof(zh), 0) != (ssize_t)sizeof(zh))
			return -1;
		w->zlen = sizeof(zh);
		return ftruncate(w->z_fd, (off_t)w->zlen);
	}
	if (read_all(w->z_fd, &zh, sizeof(zh), 0) ||
	    memcmp(zh.magic, KFT_ZREC_MAGIC, sizeof(KFT_ZREC_MAGIC)) ||
	    zh.hdr_size != sizeof(zh) || zh.chunk_recs != KFT_ZCHUNK_RECS ||
	    zh.codec != KFT_ZCODEC_ZSTD_DELTA) {
		errno = EINVAL;		/* not ours to append to */
		return -1;
	}
	while (!w->sealed) {
		struct kft_zframe f;

		if (read_all(w->z_fd, &f, sizeof(f), off) || f.magic != KFT_ZFRAME_MAGIC ||
		    f.first != w->done || !f.nrecs || f.nrecs > KFT_ZCHUNK_RECS ||
		    f.zsize > (uint64_t)st.st_size - off - sizeof(f))
			break;
		off += sizeof(f) + f.zsize;
		w->done += f.nrecs;
		w->sealed = f.nrecs < KFT_ZCHUNK_RECS;
	}
	w->zlen = off;
	return off < (uint64_t)st.st_size ? ftruncate(w->z_fd, (off_t)off) : 0;
}

NOTRACE int kft_zwriter_open(struct kft_zwriter *w, int dirfd, const char *name)
{
	struct kft_thread_hdr h;
	size_t work = kft_zcodec_work_size();
	char zname[256];

	memset(w, 0, sizeof(*w));
	w->raw_fd = w->z_fd = -1;
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
	w->z_fd = openat(dirfd, zname, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (w->z_fd < 0 || resume(w))
		goto fail;
	w->durable = 0;		/* punching again what was punched is harmless */
	w->out_cap = kft_zcodec_bound(KFT_ZCHUNK_RECS);
	w->mem_size = (work + 64 + KFT_ZCHUNK_RECS * sizeof(struct kft_rec) +
		       KFT_ZCODEC_SCRATCH(KFT_ZCHUNK_RECS) + w->out_cap + 4095) & ~(size_t)4095;
	w->mem = mmap(NULL, w->mem_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		      0);
	if (w->mem == MAP_FAILED) {
		w->mem = NULL;
		goto fail;
	}
	w->buf = (struct kft_rec *)((char *)w->mem + ((work + 63) & ~(size_t)63));
	w->scratch = (uint8_t *)(w->buf + KFT_ZCHUNK_RECS);
	w->out = w->scratch + KFT_ZCODEC_SCRATCH(KFT_ZCHUNK_RECS);
	w->out_cap = w->mem_size - (size_t)((char *)w->out - (char *)w->mem);
	if (!(w->cctx = kft_zcodec_init(w->mem, work))) {
		errno = ENOMEM;
		goto fail;
	}
	return 0;
fail:
	kft_zwriter_close(w);
	return -1;
}

NOTRACE int kft_zwriter_add(struct kft_zwriter *w, uint32_t n)
{
	struct kft_zframe f = { .magic = KFT_ZFRAME_MAGIC, .first = w->done, .nrecs = n };
	struct iovec iov[2];
	size_t z;

	if (w->sealed || !n || n > KFT_ZCHUNK_RECS ||
	    read_all(w->raw_fd, w->buf, n * sizeof(struct kft_rec),
		     w->records_off + w->done * sizeof(struct kft_rec)))
		return -1;
	if (!(z = kft_zcodec_pack(w->cctx, w->out, w->out_cap, w->buf, n, w->scratch)))
		return -1;
	f.zsize = (uint32_t)z;
	iov[0] = (struct iovec){ &f, sizeof(f) };
	iov[1] = (struct iovec){ w->out, z };
	if (pwritev(w->z_fd, iov, 2, (off_t)w->zlen) != (ssize_t)(sizeof(f) + z)) {
		/* a full disk: the frame is not there, the records stay raw */
		if (ftruncate(w->z_fd, (off_t)w->zlen))
			w->sealed = true;	/* and cannot be undone: add no more */
		return -1;
	}
	w->zlen += sizeof(f) + z;
	w->done += n;
	w->sealed = n < KFT_ZCHUNK_RECS;
	return 0;
}

NOTRACE int kft_zwriter_commit(struct kft_zwriter *w)
{
	uint64_t from = w->records_off + w->durable * sizeof(struct kft_rec);

	if (w->durable == w->done)
		return 0;
	if (fdatasync(w->z_fd))
		return -1;
	/* a file system that cannot punch keeps both copies: still right */
	if (fallocate(w->raw_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)from,
		      (off_t)((w->done - w->durable) * sizeof(struct kft_rec))) &&
	    errno != EOPNOTSUPP)
		return -1;
	w->durable = w->done;
	return 0;
}

NOTRACE void kft_zwriter_close(struct kft_zwriter *w)
{
	if (w->mem)
		munmap(w->mem, w->mem_size);
	if (w->z_fd >= 0)
		close(w->z_fd);
	if (w->raw_fd >= 0)
		close(w->raw_fd);
	w->mem = NULL;
	w->z_fd = w->raw_fd = -1;
}
