// SPDX-License-Identifier: LGPL-2.1
/*
 * Each thread's finished records compressed into its .kfz while the
 * program runs, by the helper thread (helper.c), so that a long run takes
 * about a byte a call on disk rather than sixteen. Records are final once
 * written (a record is written when its call ends), so everything below
 * the header's head can go. The helper reads the thread file through its
 * own descriptor and its own map of the header, never the writer's
 * mapping, which moves as the log grows and goes when the thread ends.
 * When the helper falls behind, records simply stay raw a while longer.
 *
 * Compressing takes some 10 ns a record, on another CPU. While a thread
 * runs, the newest records of its log stay raw (KFT_COMPRESS_BEHIND,
 * 256 KiB: 16,384 calls): a run shorter than that is never disturbed, and
 * `kft record` compresses its logs once the program has ended. A longer
 * run is compressed as it goes, so the disk holds at most about that much
 * raw per thread, and what is left for `kft record` after the program is
 * short: the whole process ends sooner (fib 32, 7 million calls: 390 ->
 * 325 ms with 4 MiB behind; 4 MiB -> 256 KiB took kft record's packing
 * at the end from 3 to 5 ms to under 1, and 21 paired runs 9 ms off the
 * whole) while the program's own time stays as it was. (Where
 * CPUs share a core the helper's work could stretch the durations kft
 * measures; a larger KFT_COMPRESS_BEHIND keeps it off the run.)
 *
 * A log the helper follows from its start is a ring (trace-format.h's
 * ring, thread.c): once grown to KFT_RING_RECS records it wraps, and the
 * helper, as it packs, raises the log's capacity to what it has packed
 * plus the ring: a writer that catches up waits for it
 * (kft_compress_make_room). Its slots are written
 * over, never given back: no page of the log is found, zeroed, punched
 * out and found again for each 256 records, which cost as much CPU as
 * the packing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <sys/mman.h>

#include "runtime.h"
#include "../common/populate.h"
#include "../format/zwriter.h"

#define ZSLOTS 1024
#define ROUND_CHUNKS 64			/* frames per log per round (4 MiB of records) */
#define BATCH_RECS (1ULL << 20)		/* sync and punch every 16 MiB of records */
#define BEHIND_DEFAULT (1ULL << 14)	/* records left raw behind a running writer */

static uint64_t behind = BEHIND_DEFAULT;

enum { FREE, CLAIMED, ADDED, OPEN, DROPPED };

struct zslot {
	int state;			/* FREE .. DROPPED; the owner claims, the helper frees */
	int owner_done;			/* the thread writes no more */
	uint32_t owner_log;		/* 1 + the file_seq of the log it is, while
					 * the helper may follow it (a coroutine's
					 * log may go from thread to thread) */
	char name[64];
	struct kft_thread_hdr *hdr;	/* the helper's own map of the header */
	struct kft_zwriter w;
};

static struct zslot zslots[ZSLOTS];
static int zslots_used;		/* as prefault.c's slots_used */

static KFT_NOTRACE void release(struct zslot *s)
{
	if (s->w.ring_map)
		munmap((void *)s->w.ring_map, s->w.ring * sizeof(struct kft_rec));
	s->w.ring_map = NULL;
	kft_zwriter_close(&s->w);
	if (s->hdr)
		munmap(s->hdr, 4096);
	s->hdr = NULL;
	/* a writer waiting for room in its ring waits no more */
	__atomic_store_n(&s->owner_log, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&s->state, FREE, __ATOMIC_RELEASE);
}

/* Map the log's header, to follow its head. */
static KFT_NOTRACE void start(struct zslot *s)
{
	int fd = openat(kft_dir(), s->name, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	/* (writable: a ring's capacity is the helper's to raise) */
	void *map = fd < 0 ? MAP_FAILED
			   : mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (fd >= 0)
		close(fd);
	if (map == MAP_FAILED) {
		__atomic_store_n(&s->owner_log, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&s->state, DROPPED, __ATOMIC_RELEASE);
		return;
	}
	s->hdr = map;
	memset(&s->w, 0, sizeof(s->w));	/* the slot may have served another log */
	s->w.raw_fd = s->w.z_fd = -1;
	__atomic_store_n(&s->state, OPEN, __ATOMIC_RELAXED);
}

/* A ring grown whole may be written up to what its .kfz holds plus the
 * ring (until then its capacity is its writer's). */
static KFT_NOTRACE void raise_ring(struct kft_thread_hdr *h, uint64_t packed)
{
	uint64_t cap = __atomic_load_n(&h->capacity, __ATOMIC_RELAXED), room = packed + h->ring;

	if (room > kft_rt.max_records)
		room = kft_rt.max_records;
	if (cap >= h->ring && room > cap)
		__atomic_store_n(&h->capacity, room, __ATOMIC_RELEASE);
}

/*
 * A ring gone round once is packed where it lies, not copied out of the
 * file first: mapped, and its page table filled in one call rather than
 * a fault each 16 pages. (Not before: the file is shorter than the ring
 * until it has grown whole, and then the slots not written yet are
 * holes, which populating would read in as zeros, milliseconds in which
 * the helper does not fault the log in ahead of its writer.)
 */
static KFT_NOTRACE void map_ring(struct kft_zwriter *w)
{
	size_t len = w->ring * sizeof(struct kft_rec);
	void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, w->raw_fd, (off_t)w->records_off);

	if (map == MAP_FAILED)
		return;
	kft_populate(map, len, MADV_POPULATE_READ);
	w->ring_map = map;
}

/* Compress what one log has finished; whether there was work. */
static KFT_NOTRACE bool follow(struct zslot *s)
{
	bool done = __atomic_load_n(&s->owner_done, __ATOMIC_ACQUIRE);
	uint64_t head = __atomic_load_n(&s->hdr->head, __ATOMIC_ACQUIRE);
	uint64_t keep = done ? 0 : behind;	/* an ended thread's log goes whole */
	uint64_t ring = s->hdr->ring;
	int n = 0;

	if (ring && keep > ring / 2)
		keep = ring / 2;	/* a ring's writer must not wait for it */

	/* the .kfz only once there is a frame for it */
	if (s->w.raw_fd < 0 && s->w.done + KFT_ZCHUNK_RECS + keep <= head &&
	    kft_zwriter_open(&s->w, kft_dir(), s->name, &kft_zcodecs_rice)) {
		release(s);
		return false;
	}
	if (ring && head >= ring && s->w.raw_fd >= 0 && !s->w.ring_map)
		map_ring(&s->w);
	while (n < ROUND_CHUNKS && s->w.done + KFT_ZCHUNK_RECS + keep <= head) {
		/* a round takes milliseconds, in which a writer goes megabytes
		 * further: the logs stay populated ahead of it between frames */
		kft_prefault_step();
		if (kft_zwriter_add(&s->w, KFT_ZCHUNK_RECS)) {
			kft_zwriter_commit(&s->w, true);
			release(s);	/* a full disk, say: the rest stays raw */
			return true;
		}
		n++;
		if (ring)
			raise_ring(s->hdr, s->w.done);
	}
	if (ring)
		raise_ring(s->hdr, s->w.done);	/* (it may have grown whole since) */
	/* a ring gives nothing back, so waits for no sync */
	else if (s->w.done - s->w.durable >= BATCH_RECS ||
		 (n < ROUND_CHUNKS && s->w.done > s->w.durable))
		kft_zwriter_commit(&s->w, true);
	if (done && n < ROUND_CHUNKS)
		release(s);	/* the last part frame is `kft record`'s, at the end */
	return n > 0;
}

/* The helper's round; whether it compressed anything. */
KFT_NOTRACE bool kft_compress_step(void)
{
	int used = __atomic_load_n(&zslots_used, __ATOMIC_ACQUIRE);
	bool busy = false;

	for (int i = 0; i < used; i++) {
		struct zslot *s = &zslots[i];

		switch (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE)) {
		case ADDED:
			start(s);
			break;
		case OPEN:
			busy |= follow(s);
			break;
		case DROPPED:
			if (__atomic_load_n(&s->owner_done, __ATOMIC_ACQUIRE))
				release(s);
			break;
		}
	}
	return busy;
}

/* A new thread file, to compress behind its writer. */
KFT_NOTRACE void kft_compress_add(struct kft_tls *t)
{
	if (!kft_helper_running() || kft_rt.overwrite || !kft_rt.compress)
		return;
	for (int i = 0; i < ZSLOTS; i++) {
		int free_ = FREE;

		if (__atomic_load_n(&zslots[i].state, __ATOMIC_RELAXED) != FREE ||
		    !__atomic_compare_exchange_n(&zslots[i].state, &free_, CLAIMED, false,
						 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			continue;
		kft_thread_file_name(t, zslots[i].name, sizeof(zslots[i].name));
		zslots[i].owner_done = 0;
		zslots[i].owner_log = t->file_seq + 1;
		kft_raise_to(&zslots_used, i + 1);
		__atomic_store_n(&zslots[i].state, ADDED, __ATOMIC_RELEASE);
		t->compress_slot = i + 1;
		return;
	}
}

/* The thread is done with its file. */
KFT_NOTRACE void kft_compress_done(struct kft_tls *t)
{
	if (t->compress_slot)
		__atomic_store_n(&zslots[t->compress_slot - 1].owner_done, 1, __ATOMIC_RELEASE);
	t->compress_slot = 0;
}

/* Whether the helper follows t's log, and will raise its capacity. */
static KFT_NOTRACE bool followed(const struct kft_tls *t)
{
	const struct zslot *s;
	int state;

	if (!t->compress_slot || !kft_helper_running())
		return false;
	s = &zslots[t->compress_slot - 1];
	state = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
	return __atomic_load_n(&s->owner_log, __ATOMIC_ACQUIRE) == t->file_seq + 1 &&
	       (state == ADDED || state == OPEN);
}

/*
 * t's log is a ring grown whole (thread.c) with no room for need
 * records: wait for the helper to pack what it holds. 0 once there is
 * room; -1 if the helper let the log go (it could not write its .kfz:
 * a full disk, say), and then the log is full, as a log that cannot
 * grow is.
 */
KFT_NOTRACE int kft_compress_make_room(struct kft_tls *t, uint64_t need)
{
	struct kft_thread_hdr *h = t->hdr;
	struct timespec nap = { 0, 20000 };
	int saved = errno;

	while (need > __atomic_load_n(&h->capacity, __ATOMIC_ACQUIRE)) {
		if (!followed(t)) {
			errno = saved;
			return -1;
		}
		nanosleep(&nap, NULL);
	}
	errno = saved;
	return 0;
}

/* KFT_COMPRESS_BEHIND: bytes of records, with K, M or G. */
static KFT_NOTRACE uint64_t parse_behind(const char *s)
{
	uint64_t v = 0;

	if (!s || *s < '0' || *s > '9')
		return BEHIND_DEFAULT;
	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (uint64_t)(*s - '0');
	if (*s == 'K' || *s == 'k')
		v <<= 10;
	else if (*s == 'M' || *s == 'm')
		v <<= 20;
	else if (*s == 'G' || *s == 'g')
		v <<= 30;
	return v / sizeof(struct kft_rec);
}

/* Before the helper starts, and in a fork child, where the parent's
 * helper is gone: its descriptors and maps are the child's copies. */
KFT_NOTRACE void kft_compress_reset(void)
{
	behind = parse_behind(kft_env("KFT_COMPRESS_BEHIND"));
	for (int i = 0; i < zslots_used; i++)
		if (zslots[i].state == OPEN)
			release(&zslots[i]);
	memset(zslots, 0, (size_t)zslots_used * sizeof(zslots[0]));
	zslots_used = 0;
}
