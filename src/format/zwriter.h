/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Moving a thread file's finished records into its .kfz: read them from
 * the file (never from its writer's mapping, which may move), compress a
 * frame at a time, append, and only once the frames are on disk give the
 * records' pages back to the file system (a hole reads as zeros). A crash
 * at any point leaves every record readable, from the one file or the
 * other. Used by the runtime's helper thread while the program runs and
 * by `kft record` for what is left when it has ended.
 */
#ifndef KFT_ZWRITER_H
#define KFT_ZWRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace-format.h"
#include "zcodec.h"

/* Packs frames: its own work memory (one mapping: no malloc), so that
 * several can pack a file's frames at once. */
struct kft_zpacker {
	const struct kft_zcodecs *codecs;
	void *cctx;			/* the codec's context, if it needs one */
	uint32_t codec;			/* KFT_ZCODEC_*: the file's */
	void *mem;
	size_t mem_size;
	struct kft_rec *buf;
	uint8_t *scratch;
	unsigned char *out;		/* the last frame packed: header and data */
	size_t out_cap;
};

int kft_zpacker_init(struct kft_zpacker *p, uint32_t codec, const struct kft_zcodecs *codecs);
/* Records [first, first + n) of a thread file (read from raw_fd, its
 * records at records_off, ring slots of them as its header says), as a
 * frame in p->out: its length, or 0 on error. A frame begins at a
 * multiple of KFT_ZCHUNK_RECS, so never wraps round a ring. */
size_t kft_zpacker_pack(struct kft_zpacker *p, int raw_fd, uint64_t records_off, uint64_t ring,
			uint64_t first, uint32_t n);
/* The same, of records in memory. */
size_t kft_zpacker_pack_recs(struct kft_zpacker *p, const struct kft_rec *recs, uint64_t first,
			     uint32_t n);
void kft_zpacker_free(struct kft_zpacker *p);

struct kft_zwriter {
	int raw_fd;			/* the thread file, read-write (to punch) */
	int z_fd;			/* its .kfz */
	uint64_t records_off;
	uint64_t ring;			/* the thread file's (trace-format.h): its
					 * slots are written over, never given back */
	const struct kft_rec *ring_map;	/* the ring's slots mapped, to pack from
					 * in place, or NULL: read from raw_fd
					 * (its owner maps and unmaps it) */
	uint64_t done;			/* records [0, done) are in frames */
	uint64_t durable;		/* ... [0, durable) synced and given back */
	uint64_t zlen;			/* where the next frame goes */
	bool sealed;			/* a short last frame: nothing may follow */
	uint32_t codec;			/* the file's: a new one's is the newest */
	struct kft_zpacker p;
};

/* The .kfz beside thread file `name` of dirfd, created, or continued
 * after the whole frames it holds, in its codec (a frame cut short by a
 * crash is dropped), if codecs writes it (else EINVAL). 0, or -1 with
 * errno. */
int kft_zwriter_open(struct kft_zwriter *w, int dirfd, const char *name,
		     const struct kft_zcodecs *codecs);

/* Append a frame of records [done, done + n), n <= KFT_ZCHUNK_RECS;
 * a frame of fewer seals the file. 0, or -1 (the file is as before). */
int kft_zwriter_add(struct kft_zwriter *w, uint32_t n);

/* Append a frame another packer made of records [done, done + n). */
int kft_zwriter_append(struct kft_zwriter *w, const void *frame, size_t len, uint32_t n);

/* Sync the frames appended (if sync), then punch their records out of
 * the thread file (a ring's stay: they are written over). 0, or -1 (the
 * records stay in both). Unsynced, the frames are in the page cache,
 * where every reader finds them, before the records go: a crash of the
 * program or of kft loses nothing; only a crash of the machine could,
 * as it could the raw records, which no one syncs. */
int kft_zwriter_commit(struct kft_zwriter *w, bool sync);

void kft_zwriter_close(struct kft_zwriter *w);

/* "thread-1-2-0.kft" -> "thread-1-2-0.kfz"; false if name is no .kft. */
bool kft_zname(const char *name, char *out, size_t size);

#endif
