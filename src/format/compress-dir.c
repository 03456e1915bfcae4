// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/populate.h"
#include "../common/process.h"
#include "compress-dir.h"
#include "trace-format.h"
#include "zwriter.h"

/* Whether the thread file's writer is gone: kft wrote a kernel file in
 * one go; a program's is done when its process is. */
static bool finished(int fd, const struct kft_thread_hdr *h)
{
	struct kft_rec r;
	struct kft_frame f;

	if (h->head && pread(fd, &r, sizeof(r), (off_t)h->records_off) == sizeof(r) &&
	    (r.site_flags << 4) & KFT_REC_KERNEL)
		return true;
	if (!h->head && h->depth &&
	    pread(fd, &f, sizeof(f), (off_t)h->shadow_off) == sizeof(f) &&
	    (f.flags & KFT_FRAME_KERNEL))
		return true;
	return kft_process_gone((pid_t)h->pid);
}

/* Whether h is all zeros: a header not written yet. */
static bool unwritten(const struct kft_thread_hdr *h)
{
	const unsigned char *p = (const unsigned char *)h;

	for (size_t i = 0; i < sizeof(*h); i++)
		if (p[i])
			return false;
	return true;
}

static int copy_range(int in, uint64_t off, uint64_t len, int out, uint64_t to_off)
{
	char buf[65536];

	while (len) {
		size_t n = len < sizeof(buf) ? len : sizeof(buf);
		ssize_t r = pread(in, buf, n, (off_t)off), w;

		if (r != (ssize_t)n) {
			if (r >= 0)
				errno = EIO;	/* the file ended early */
			return -1;
		}
		w = pwrite(out, buf, n, (off_t)to_off);
		if (w != (ssize_t)n) {
			if (w >= 0)
				errno = ENOSPC;	/* a short write: no more room */
			return -1;
		}
		off += n;
		to_off += n;
		len -= n;
	}
	return 0;
}

/* ---- packing a file's frames on every CPU ------------------------------ */

#define WORKERS_MAX 4
#define ROUND_FRAMES 16		/* frames a worker packs per round */

struct worker {
	pthread_t tid;
	bool threaded;		/* this round on a thread of its own */
	struct kft_zpacker p;
	int raw_fd;
	uint64_t records_off, ring;
	uint64_t first, end;	/* its records this round */
	unsigned char *frames;	/* room for ROUND_FRAMES frames of p.out_cap
				 * bytes; they lie one after another */
	size_t offs[ROUND_FRAMES], lens[ROUND_FRAMES];
	uint32_t nrecs[ROUND_FRAMES];
	size_t n;
	size_t ready;		/* frames' bytes faulted in so far */
	bool failed;
};

/* Frames' bytes are faulted in this much at a time, ahead of the copies
 * (one call instead of a fault a page). */
#define FRAMES_AHEAD (256 << 10)

static void *pack_round(void *arg)
{
	struct worker *wk = arg;
	size_t used = 0;

	wk->n = 0;
	wk->failed = false;
	for (uint64_t r = wk->first; r < wk->end; r += KFT_ZCHUNK_RECS) {
		uint32_t n = wk->end - r < KFT_ZCHUNK_RECS ? (uint32_t)(wk->end - r) : KFT_ZCHUNK_RECS;
		size_t len = kft_zpacker_pack(&wk->p, wk->raw_fd, wk->records_off, wk->ring,
						      r, n);

		if (!len) {
			wk->failed = true;
			break;
		}
		/* (packed close: a frame is often a few KiB of its 100, and
		 * each page it would leave between them is a page fault) */
		if (used + len > wk->ready) {
			size_t size = ROUND_FRAMES * wk->p.out_cap;
			size_t more = used + len - wk->ready;

			more = more > FRAMES_AHEAD ? more : FRAMES_AHEAD;
			more = more < size - wk->ready ? more : size - wk->ready;
			kft_populate(wk->frames + wk->ready, more, MADV_POPULATE_WRITE);
			wk->ready += more;
		}
		memcpy(wk->frames + used, wk->p.out, len);
		wk->offs[wk->n] = used;
		wk->lens[wk->n] = len;
		used += len;
		wk->nrecs[wk->n++] = n;
	}
	return NULL;
}

/* Records [w->done, head) into frames, packed by up to WORKERS_MAX
 * threads a round at a time and appended in order. 0 or -1. */
static int pack_all(struct kft_zwriter *w, uint64_t head)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nw = cpus < 2 ? 1 : cpus > WORKERS_MAX ? WORKERS_MAX : (size_t)cpus, made = 0;
	struct worker wk[WORKERS_MAX];
	int ret = -1;

	if (nw == 1 || head - w->done <= 2 * KFT_ZCHUNK_RECS) {
		while (w->done < head) {
			uint64_t n = head - w->done;

			if (kft_zwriter_add(w, n < KFT_ZCHUNK_RECS ? (uint32_t)n : KFT_ZCHUNK_RECS))
				return -1;
		}
		return 0;
	}
	memset(wk, 0, sizeof(wk));
	for (; made < nw; made++) {
		if (kft_zpacker_init(&wk[made].p, w->codec, &kft_zcodecs_all))
			goto out;
		wk[made].frames = malloc(ROUND_FRAMES * wk[made].p.out_cap);
		if (!wk[made].frames) {
			kft_zpacker_free(&wk[made].p);
			goto out;
		}
		wk[made].raw_fd = w->raw_fd;
		wk[made].records_off = w->records_off;
		wk[made].ring = w->ring;
	}
	while (w->done < head) {
		uint64_t at = w->done, span = (uint64_t)ROUND_FRAMES * KFT_ZCHUNK_RECS;
		size_t started = 0;

		for (size_t i = 0; i < nw && at < head; i++, at += span) {
			wk[i].first = at;
			wk[i].end = head - at < span ? head : at + span;
			wk[i].threaded = !pthread_create(&wk[i].tid, NULL, pack_round, &wk[i]);
			if (!wk[i].threaded)
				pack_round(&wk[i]);	/* no thread: here, then */
			started++;
		}
		for (size_t i = 0; i < started; i++)
			if (wk[i].threaded)
				pthread_join(wk[i].tid, NULL);
		for (size_t i = 0; i < started; i++) {
			if (wk[i].failed)
				goto out;
			for (size_t k = 0; k < wk[i].n; k++)
				if (kft_zwriter_append(w, wk[i].frames + wk[i].offs[k],
						       wk[i].lens[k], wk[i].nrecs[k]))
					goto out;
		}
	}
	ret = 0;
out:
	for (size_t i = 0; i < made; i++) {
		kft_zpacker_free(&wk[i].p);
		free(wk[i].frames);
	}
	return ret;
}

/* ---- cutting thread files down ---------------------------------------- */

/*
 * The file as header, open frames, sites and (raw = true) its records,
 * in that order, without the room the stacks and the log had. False if
 * the file is laid out otherwise, or is so already.
 */
static bool compact_layout(const struct kft_thread_hdr *old, bool raw, struct kft_thread_hdr *h,
			   uint64_t *size)
{
	uint64_t nframes = old->depth < old->shadow_cap ? old->depth : old->shadow_cap;

	*h = *old;
	h->shadow_cap = nframes;
	h->sites_off = old->shadow_off + nframes * sizeof(struct kft_frame);
	h->sites_cap = old->nsites;
	h->records_off = (h->sites_off + old->nsites * sizeof(struct kft_site) + 7) & ~7ULL;
	h->capacity = raw ? old->head : 0;
	h->ring = 0;		/* raw, they are few: in their own slots */
	h->reserved = old->head;
	*size = h->records_off + h->capacity * sizeof(struct kft_rec);
	return old->shadow_off == sizeof(*old) &&
	       old->sites_off >= old->shadow_off + old->shadow_cap * sizeof(struct kft_frame) &&
	       old->records_off >= old->sites_off + old->sites_cap * sizeof(struct kft_site) &&
	       (old->sites_off != h->sites_off || old->records_off != h->records_off ||
		h->capacity < old->capacity);
}

/*
 * Write name anew as h lays it out (size bytes): the open frames, the
 * sites and h->capacity raw records from fd, laid out as old says, then
 * the header; then put it in the old file's place. Never cut in place:
 * a reader of the trace (kft log while kft record ends) has the old file
 * mapped as its header said, and pages cut from under a map are a
 * SIGBUS; renamed over, the old file stays whole until it lets go. A kft
 * killed on the way leaves the old file as it was (and a .cut file,
 * which nothing reads).
 */
static int rewrite(int dirfd, const char *name, int fd, const struct kft_thread_hdr *old,
		   const struct kft_thread_hdr *h, uint64_t size)
{
	char cut[300];
	struct stat st;
	int out, ret = -1;

	if (fstat(fd, &st) || snprintf(cut, sizeof(cut), "%s.cut", name) >= (int)sizeof(cut))
		return -1;
	unlinkat(dirfd, cut, 0);
	out = openat(dirfd, cut, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		     st.st_mode & 07777);
	if (out < 0)
		return -1;
	if (fchown(out, st.st_uid, st.st_gid)) {
		/* not ours to give: it stays kft's */
	}
	if (!ftruncate(out, (off_t)size) &&
	    !copy_range(fd, old->shadow_off, h->shadow_cap * sizeof(struct kft_frame), out,
			h->shadow_off) &&
	    !copy_range(fd, old->sites_off, old->nsites * sizeof(struct kft_site), out,
			h->sites_off) &&
	    !copy_range(fd, old->records_off, h->capacity * sizeof(struct kft_rec), out,
			h->records_off) &&
	    pwrite(out, h, sizeof(*h), 0) == sizeof(*h) && !renameat(dirfd, cut, dirfd, name))
		ret = 0;
	close(out);
	if (ret)
		unlinkat(dirfd, cut, 0);
	return ret;
}

/*
 * Cut the file down to what it holds (rewrite), unless that copies raw
 * records past the old sites' place (a long --no-compress log): such a
 * log loses only its unused room past them, in place, where no reader
 * looks (none reads past the head it read).
 */
static int compact(int dirfd, const char *name, int fd, const struct kft_thread_hdr *old,
		   bool raw)
{
	struct kft_thread_hdr h;
	uint64_t size;

	if (compact_layout(old, raw, &h, &size) && (!h.capacity || size <= old->sites_off))
		return rewrite(dirfd, name, fd, old, &h, size);
	if (raw && old->head < old->capacity) {
		h = *old;
		h.capacity = old->head;
		size = old->records_off + old->head * sizeof(struct kft_rec);
		return pwrite(fd, &h, sizeof(h), 0) != sizeof(h) ||
		       ftruncate(fd, (off_t)size) ? -1 : 0;
	}
	return 0;
}

/*
 * One thread file: its records into its .kfz, unless they are few and it
 * has none: those stay raw, and move with the file. Then cut the file
 * down. The .kfz is written before the raw copies go, unsynced: kft
 * record's finish waited 12 ms for fib's 12 MB to reach the disk, for a
 * safety against the machine's crash that the raw log never had.
 */
static int compress_file(int dirfd, const char *name, bool raw_only, struct kft_zstats *st)
{
	struct kft_thread_hdr h;
	struct kft_zwriter w;
	char zname[256];
	int fd = openat(dirfd, name, O_RDWR | O_CLOEXEC | O_NOFOLLOW), ret = -1, why;
	bool raw;

	if (fd < 0)
		return -1;
	if (pread(fd, &h, sizeof(h), 0) != sizeof(h) || unwritten(&h)) {
		/* a thread's file is made first and its header written
		 * after: one of a process still starting a thread */
		st->live++;
		ret = 0;
		goto out;
	}
	if (memcmp(h.magic, KFT_THREAD_MAGIC, sizeof(KFT_THREAD_MAGIC)) ||
	    h.hdr_size != sizeof(h) || h.rec_size != sizeof(struct kft_rec) ||
	    !kft_zname(name, zname, sizeof(zname))) {
		errno = EINVAL;
		goto out;
	}
	if (h.overwrite) {
		st->rings++;
		ret = 0;
		goto out;
	}
	if (!finished(fd, &h)) {
		st->live++;
		ret = 0;
		goto out;
	}
	if (h.version < KFT_FORMAT_VERSION) {
		/* an older kft would read the records given back as zeros */
		uint32_t v = KFT_FORMAT_VERSION;

		if (pwrite(fd, &v, sizeof(v), offsetof(struct kft_thread_hdr, version)) !=
		    sizeof(v))
			goto out;
		h.version = v;
	}
	/* a file with a .kfz already has records only it holds: compress
	 * the rest whatever was asked */
	raw = faccessat(dirfd, zname, F_OK, 0) && (raw_only || h.head <= KFT_ZCHUNK_RECS);
	if (!raw) {
		uint64_t before;

		if (kft_zwriter_open(&w, dirfd, name, &kft_zcodecs_all))
			goto out;
		before = w.done;
		if (pack_all(&w, h.head) || w.done != h.head || kft_zwriter_commit(&w, false)) {
			why = errno;	/* (closing removes what it wrote) */
			kft_zwriter_close(&w);
			errno = why;
			goto out;
		}
		kft_zwriter_close(&w);
		st->calls += w.done - before;
	}
	st->files++;
	ret = compact(dirfd, name, fd, &h, raw);
out:
	why = errno;	/* (a failure's, for the message) */
	close(fd);
	errno = why;
	return ret;
}

int kft_trace_compress(const char *dir, bool raw_only, struct kft_zstats *st,
		       struct kft_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0;

	memset(st, 0, sizeof(*st));
	if (!d)
		return kft_error_set(err, "%s: %s", dir, strerror(errno));
	while ((de = readdir(d)) && !ret)
		if (kft_is_thread_file_name(de->d_name) &&
		    compress_file(dirfd(d), de->d_name, raw_only, st))
			ret = kft_error_set(err, "%s/%s: cannot compress: %s", dir, de->d_name,
					    strerror(errno));
	closedir(d);
	return ret;
}

static void *compress_job(void *arg)
{
	struct kft_compress_job *job = arg;

	job->ret = kft_trace_compress(job->dir, job->raw_only, &job->st, &job->err);
	return NULL;
}

void kft_trace_compress_start(struct kft_compress_job *job, const char *dir, bool raw_only)
{
	memset(job, 0, sizeof(*job));
	job->dir = dir;
	job->raw_only = raw_only;
	job->threaded = !pthread_create(&job->tid, NULL, compress_job, job);
	if (!job->threaded)
		compress_job(job);
}

int kft_trace_compress_wait(struct kft_compress_job *job)
{
	if (job->threaded)
		pthread_join(job->tid, NULL);
	job->threaded = false;
	return job->ret;
}
