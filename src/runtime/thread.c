// SPDX-License-Identifier: LGPL-2.1
/*
 * One memory-mapped file per thread: header, shadow stack, call sites,
 * records. The file is sparse, so only the pages a thread touches take
 * space, and it is shared with the page cache, so whatever the thread
 * wrote survives the process being killed. The records come last: the
 * file starts small and grows with the log (kft_thread_grow_log), and
 * ends where the log does once the thread is done (kft_thread_trim); or,
 * compressed as it goes, grows to a ring that wraps (compress.c). The
 * sites' hash index is private memory beside it.
 *
 * A store into a shared file mapping that the file system cannot back (a
 * full disk) is a SIGBUS, which would kill the program: so the blocks
 * for each part are taken (kft_take_room) before the hooks may store there,
 * a chunk at a time, and a part that finds no room ends the log as a
 * full log does, with the run told the disk is full.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/futex.h>

#include "../format/trace-files.h"
#include "runtime.h"
#include "vector-state.h"

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

#define GROW_STEP (1U << 26)		/* the log doubles up to 1 GiB, then grows
					 * by 1 GiB at a time */
#define RECS_PER_PAGE (4096 / sizeof(struct kft_rec))

static KFT_NOTRACE uint64_t round_recs(uint64_t n)
{
	return (n + RECS_PER_PAGE - 1) / RECS_PER_PAGE * RECS_PER_PAGE;
}

KFT_NOTRACE void kft_thread_file_name(const struct kft_tls *t, char *name, size_t size)
{
	snprintf(name, size, "thread-%u-%u-%u.kft", t->hdr->session, t->hdr->tid, t->file_seq);
}

#define ZEROS (64 << 10)
static const char zeros[ZEROS];

/*
 * Blocks for [off, off + len) of the file, taken now (the file grows to
 * hold them if need be). 0, or -1 when the file system is full (the run
 * is told). A small part is written with zeros: that reserves its blocks
 * on any file system (ext4 gives delayed ones, which cost nothing to cut
 * off again), and puts its pages in the cache for the stores to come; a
 * larger one is reserved (fallocate), or where the file system cannot,
 * gets its blocks as the stores come, as on any file.
 */
KFT_NOTRACE int kft_take_room(int fd, uint64_t off, uint64_t len)
{
	if (!len)
		return 0;
	if (len <= ZEROS) {
		if (pwrite(fd, zeros, len, (off_t)off) == (ssize_t)len)
			return 0;
	} else if (kft_rt.no_fallocate || !fallocate(fd, 0, (off_t)off, (off_t)len)) {
		return 0;
	} else if (errno == EOPNOTSUPP || errno == ENOSYS || errno == EINVAL) {
		kft_rt.no_fallocate = true;
		return 0;
	}
	__atomic_store_n(&kft_rt.ctl->disk_full, 1, __ATOMIC_RELAXED);
	return -1;
}

static KFT_NOTRACE int open_own(const struct kft_tls *t)
{
	struct kft_vec_keep vec;
	char name[96];
	int fd;

	/* (the hooks grow the file: snprintf must not change the program's
	 * vector registers, vector-state.h) */
	kft_vec_keep(&vec);
	kft_thread_file_name(t, name, sizeof(name));
	fd = openat(kft_dir(), name, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	kft_vec_give_back(&vec);
	return fd;
}

/* Change the file's length (the records end there); 0 or -1. A longer
 * file has its new part's blocks taken. */
static KFT_NOTRACE int resize_file(const struct kft_tls *t, size_t size)
{
	struct stat st;
	int fd = open_own(t), ret;

	if (fd < 0)
		return -1;
	ret = fstat(fd, &st);
	if (!ret && (uint64_t)st.st_size < size)
		ret = kft_take_room(fd, (uint64_t)st.st_size, size - (uint64_t)st.st_size);
	if (!ret)
		ret = ftruncate(fd, (off_t)size);
	close(fd);
	return ret;
}

/* Room in the file for frames [from, to) of the shadow stack; 0 or -1. */
static KFT_NOTRACE int take_frames(int fd, const struct kft_thread_hdr *h, uint64_t from,
				   uint64_t to)
{
	return kft_take_room(fd, h->shadow_off + from * sizeof(struct kft_frame),
			 (to - from) * sizeof(struct kft_frame));
}

KFT_NOTRACE bool kft_thread_more_frames(struct kft_tls *t)
{
	struct kft_thread_hdr *h = t->hdr;
	uint64_t cap = t->frames_cap, more = 2 * cap < h->shadow_cap ? 2 * cap : h->shadow_cap;
	int saved = errno, fd;
	bool ok;

	if (cap >= h->shadow_cap)
		return false;
	fd = open_own(t);
	ok = fd >= 0 && !take_frames(fd, h, cap, more);
	if (fd >= 0)
		close(fd);
	if (ok)
		t->frames_cap = more;
	else
		h->shadow_cap = cap;	/* the frames a reader may look at */
	errno = saved;
	return ok;
}

/* Account n more bytes of records to --max-size (n may be negative);
 * false if they do not fit. */
static KFT_NOTRACE bool take_log_bytes(int64_t n)
{
	struct kft_control *ctl = kft_rt.ctl;
	uint64_t after = __atomic_add_fetch(&ctl->log_bytes, (uint64_t)n, __ATOMIC_RELAXED);

	if (n > 0 && ctl->max_log_bytes && after > ctl->max_log_bytes) {
		__atomic_sub_fetch(&ctl->log_bytes, (uint64_t)n, __ATOMIC_RELAXED);
		return false;
	}
	return true;
}

static KFT_NOTRACE void point_into(struct kft_tls *t, void *map, size_t size)
{
	struct kft_thread_hdr *h = map;

	t->hdr = h;
	t->depth = h->depth;
	t->map_size = size;
	t->frames = (struct kft_frame *)((char *)map + h->shadow_off);
	t->recs = (struct kft_rec *)((char *)map + h->records_off);
	t->rec_mask = h->ring ? h->ring - 1 : ~(uint64_t)0;
	t->sites.sites = (struct kft_site *)((char *)map + h->sites_off);
	t->sites.nsites = &h->nsites;
}

/*
 * The log has no room for n more calls: make the file longer, within
 * max_records and --max-size. Rare (the room doubles), so a few system
 * calls are fine here; the mapping may move, so callers reload t->hdr.
 * -1: the log is full.
 */
KFT_NOTRACE int kft_thread_grow_log(struct kft_tls *t, uint64_t n)
{
	struct kft_thread_hdr *h = t->hdr;
	uint64_t need = h->reserved + n, room;
	size_t size, done;
	int saved = errno;
	void *map;

	if (kft_rt.overwrite || need > kft_rt.max_records)
		return -1;
	if (h->ring && h->capacity >= h->ring)
		return kft_compress_make_room(t, need);	/* grown whole: it wraps */
	room = h->capacity < GROW_STEP ? 2 * h->capacity : h->capacity + GROW_STEP;
	room = round_recs(room < need ? need : room < KFT_FIRST_RECORDS ? KFT_FIRST_RECORDS : room);
	if (room > kft_rt.max_records)
		room = kft_rt.max_records;
	if (h->ring && room > h->ring)
		room = h->ring;
	/* within --max-size, the room asked for, or at least what is needed */
	if (!take_log_bytes((int64_t)((room - h->capacity) * sizeof(struct kft_rec)))) {
		room = round_recs(need) < kft_rt.max_records ? round_recs(need) : need;
		if (!take_log_bytes((int64_t)((room - h->capacity) * sizeof(struct kft_rec)))) {
			__atomic_store_n(&kft_rt.ctl->max_size_reached, 1, __ATOMIC_RELAXED);
			goto full;
		}
	}
	size = h->records_off + room * sizeof(struct kft_rec);
	if (resize_file(t, size)) {
		/* no room for that much (a full disk): for what is needed */
		uint64_t least = round_recs(need);

		if (least >= room)
			goto give_back;
		take_log_bytes(-(int64_t)((room - least) * sizeof(struct kft_rec)));
		room = least;
		size = h->records_off + room * sizeof(struct kft_rec);
		if (resize_file(t, size))
			goto give_back;
	}
	done = kft_prefault_remove(t);
	map = mremap(h, t->map_size, size, MREMAP_MAYMOVE);
	if (map == MAP_FAILED) {
		kft_prefault_add(t, done);
		goto give_back;		/* the file is longer than its log: harmless */
	}
	point_into(t, map, size);
	__atomic_thread_fence(__ATOMIC_RELEASE);	/* the file first, then the room */
	/* (a ring's capacity, once it is the whole ring, is the compressor's
	 * to raise: compress.c) */
	t->hdr->capacity = room;
	kft_prefault_add(t, kft_prefault_grown(t, done));
	errno = saved;
	return need <= room ? 0 : kft_compress_make_room(t, need);
give_back:
	take_log_bytes(-(int64_t)((room - h->capacity) * sizeof(struct kft_rec)));
full:
	errno = saved;
	return -1;
}

/*
 * The log's room past the calls promised a place is disk and page cache
 * for nothing: end the file there. Calls made after this (by exit-time
 * code) grow it again.
 */
KFT_NOTRACE void kft_thread_trim(struct kft_tls *t)
{
	struct kft_thread_hdr *h = t->hdr;
	uint64_t room, old;
	size_t size;
	void *map;
	int saved = errno;

	kft_prefault_remove(t);
	if (!h || kft_rt.overwrite || (h->ring && h->capacity >= h->ring) ||
	    (room = round_recs(h->reserved)) >= h->capacity)
		return;
	old = h->capacity;
	h->capacity = room;		/* the room first, then the file */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	size = h->records_off + room * sizeof(struct kft_rec);
	if (resize_file(t, size)) {
		h->capacity = old;
		errno = saved;
		return;
	}
	take_log_bytes(-(int64_t)((old - room) * sizeof(struct kft_rec)));
	map = mremap(h, t->map_size, size, 0);
	if (map != MAP_FAILED)
		t->map_size = size;
	errno = saved;
}

/* Drop the log's mapping and its sites' index; the file stays. */
KFT_NOTRACE void kft_thread_unmap(struct kft_tls *t)
{
	munmap(t->hdr, t->map_size);
	munmap(t->sites.index, KFT_SITE_INDEX_BYTES(t->sites.nslots));
	t->sites.index = NULL;
	t->hdr = NULL;
}

/* A log is done: keep the file (its open frames become -1), drop the map. */
KFT_NOTRACE void kft_thread_finish(struct kft_tls *t)
{
	kft_args_finish(t);	/* (its name is the log's: before the log goes) */
	kft_thread_trim(t);
	/* with -pg, open frames hold return addresses: keep them readable */
	if (t->hdr && !(kft_rt.hijacked && t->hdr->depth))
		kft_thread_unmap(t);
	t->hdr = NULL;
	kft_compress_done(t);
}

static KFT_NOTRACE void thread_exit(void *arg)
{
	struct kft_tls *t = arg;

	t->dead = 1;
	kft_thread_finish(t);
	kft_fibers_thread_exit();
}

#define SITE_SLOTS_FIRST 512U			/* three pages: 256 sites, as the table */
#define SITE_SLOTS_MAX (2 * KFT_SITES_CAP)

/* A zeroed index of n slots, faulted in now rather than in a traced call. */
static KFT_NOTRACE struct kft_site_slot *new_site_index(uint32_t n)
{
	void *p = mmap(NULL, KFT_SITE_INDEX_BYTES(n), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* Room in the file for the sites up to cap. */
static KFT_NOTRACE int more_sites(struct kft_tls *t, uint32_t cap)
{
	uint32_t old = t->sites.cap;
	int fd, ret;

	if (cap == old)
		return 0;
	fd = open_own(t);
	ret = fd < 0 ? -1 : kft_take_room(fd, t->hdr->sites_off + old * sizeof(struct kft_site),
				       (cap - old) * sizeof(struct kft_site));
	if (fd >= 0)
		close(fd);
	if (!ret)
		t->sites.cap = cap;
	return ret;
}

/* An index of nslots for the sites, in place of the old one. */
static KFT_NOTRACE int bigger_index(struct kft_tls *t, uint32_t nslots)
{
	struct kft_site_slot *old = t->sites.index, *index;
	uint32_t old_n = t->sites.nslots;

	if (nslots == old_n)
		return 0;
	if (nslots > SITE_SLOTS_MAX || !(index = new_site_index(nslots)))
		return -1;
	kft_site_reindex(&t->sites, index, nslots);
	munmap(old, KFT_SITE_INDEX_BYTES(old_n));
	return 0;
}

/*
 * The site table or its index is full: make room for one more site, in
 * both at once (rare: log2 of the sites). -1 only when the file's table
 * is at its format's limit or the system refuses memory or disk.
 */
KFT_NOTRACE int kft_thread_grow_sites(struct kft_tls *t)
{
	uint32_t cap, nslots;
	int saved = errno, ret;

	ret = kft_site_grow_plan(&t->sites, (uint32_t)t->hdr->sites_cap, &cap, &nslots);
	if (!ret)
		ret = more_sites(t, cap);
	if (!ret)
		ret = bigger_index(t, nslots);
	errno = saved;
	return ret;
}

static KFT_NOTRACE void make_exit_key(void)
{
	pthread_key_create(&exit_key, thread_exit);
}

extern void *__libc_stack_end;

/* The top of the calling thread's stack, as pthread_getattr_np gives it
 * (which reads the maps with stdio and allocates a CPU set: the
 * program's malloc): the main thread's is the page above where its
 * stack began (the arguments and environment above it are not counted);
 * another's, the end of its stack block, whose last page holds the
 * thread's descriptor (glibc puts it there, on a stack of its own or one
 * the program gave); where that does not hold (a thread made otherwise),
 * the end of the mapping it is in. */
static KFT_NOTRACE uintptr_t stack_top(void)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t here = (uintptr_t)__builtin_frame_address(0), top;

	if (gettid() == getpid())
		return ((uintptr_t)__libc_stack_end & -page) + page;
	top = ((uintptr_t)pthread_self() & -page) + page;
	if (top > here && top - here <= ((uintptr_t)1 << 30))
		return top;
	return kft_maps_end_of(here);
}

/* A new log's room: a ring's whole size; else small, and smaller under
 * a small --max-size, which the first threads should not take whole. */
static KFT_NOTRACE uint64_t first_room(void)
{
	uint64_t room = KFT_FIRST_RECORDS, share = kft_rt.ctl->max_log_bytes / sizeof(struct kft_rec) / 64;

	if (kft_rt.overwrite)
		return kft_rt.max_records;
	if (kft_rt.ctl->max_log_bytes && share < room)
		room = share > RECS_PER_PAGE ? round_recs(share) : RECS_PER_PAGE;
	return room < kft_rt.max_records ? room : kft_rt.max_records;
}

/*
 * A new file, named name: one of the spares `kft record` makes ahead of
 * the threads if one is ready (a file system such as ext4 takes a few
 * hundred microseconds to create a file and give it its first pages,
 * which a storm of short processes or threads pays for each), else made
 * here. An open descriptor, or -1.
 */
static KFT_NOTRACE int new_file(const char *name, size_t size, bool *spare_taken)
{
	struct kft_control *ctl = kft_rt.ctl;
	uint32_t taken = __atomic_load_n(&ctl->spares_taken, __ATOMIC_RELAXED);
	char spare[32];
	int fd;

	while (taken < __atomic_load_n(&ctl->spares_made, __ATOMIC_ACQUIRE)) {
		if (!__atomic_compare_exchange_n(&ctl->spares_taken, &taken, taken + 1, true,
						 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			continue;
		/* kft record waits for a spare to be taken, to make the next */
		syscall(SYS_futex, &ctl->spares_taken, FUTEX_WAKE, 1, NULL, NULL, 0);
		snprintf(spare, sizeof(spare), KFT_SPARE_PREFIX "%u", taken);
		/* never over a file of that name; a spare gone (kft record
		 * clears them once the program ends) is no error */
		if (renameat2(kft_dir(), spare, kft_dir(), name, RENAME_NOREPLACE))
			break;
		fd = openat(kft_dir(), name, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
		if (fd >= 0 && size != KFT_SPARE_SIZE && ftruncate(fd, (off_t)size)) {
			close(fd);
			fd = -1;
		}
		*spare_taken = fd >= 0;
		if (fd >= 0)
			return fd;
		unlinkat(kft_dir(), name, 0);
		break;
	}
	*spare_taken = false;
	fd = openat(kft_dir(), name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd >= 0 && ftruncate(fd, (off_t)size)) {
		close(fd);
		unlinkat(kft_dir(), name, 0);
		fd = -1;
	}
	return fd;
}

/* Create and map this thread's file; the header is complete on return. */
static KFT_NOTRACE int map_new_file(struct kft_tls *t)
{
	uint32_t seq = __atomic_fetch_add(&kft_rt.thread_seq, 1, __ATOMIC_RELAXED);
	uint64_t room = first_room();
	struct kft_thread_hdr *h;
	bool spare;
	size_t size;
	char name[96];
	void *map;
	int fd;

	if (!kft_rt.overwrite && !take_log_bytes((int64_t)(room * sizeof(struct kft_rec)))) {
		room = 0;	/* --max-size is spent: a log that stays full */
		__atomic_store_n(&kft_rt.ctl->max_size_reached, 1, __ATOMIC_RELAXED);
	}
	size = KFT_RECORDS_OFF + room * sizeof(struct kft_rec);
	snprintf(name, sizeof(name), "thread-%u-%d-%u.kft", kft_rt.session, gettid(), seq);
	fd = new_file(name, size, &spare);
	if (fd < 0)
		goto fail;
	/* room for what the hooks store first (a spare has it for the first
	 * log's room) */
	if ((!spare && (kft_take_room(fd, 0, sizeof(struct kft_thread_hdr) +
					      KFT_FIRST_FRAMES * sizeof(struct kft_frame)) ||
			kft_take_room(fd, KFT_SITES_OFF, KFT_FIRST_SITES * sizeof(struct kft_site)))) ||
	    ((!spare || room > KFT_FIRST_RECORDS) &&
	     kft_take_room(fd, KFT_RECORDS_OFF, room * sizeof(struct kft_rec)))) {
		close(fd);
		unlinkat(kft_dir(), name, 0);
		goto fail;
	}
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		goto fail;
	/* no read-ahead: a fault in a hole would zero megabytes of page cache
	 * past it (the device's read_ahead_kb), which made each new thread or
	 * process cost tens of milliseconds on ext4 */
	madvise(map, size, MADV_RANDOM);
	h = map;
	h->version = KFT_FORMAT_VERSION;
	h->hdr_size = sizeof(*h);
	h->pid = (uint32_t)getpid();
	h->tid = (uint32_t)gettid();
	h->session = kft_rt.session;
	h->rec_size = sizeof(struct kft_rec);
	h->frame_size = sizeof(struct kft_frame);
	h->overwrite = kft_rt.overwrite;
	h->shadow_off = sizeof(*h);
	h->shadow_cap = KFT_SHADOW_CAP;
	h->sites_off = KFT_SITES_OFF;
	h->sites_cap = KFT_SITES_CAP;
	h->records_off = KFT_RECORDS_OFF;
	h->capacity = room;
	/* compressed as it is written: the log need not grow past a ring
	 * the compressor keeps ahead of it, whose pages are written over
	 * rather than each new page found, zeroed and given back (under
	 * --max-size every record's bytes count: it grows) */
	h->ring = kft_rt.compress && kft_helper_running() && !kft_rt.overwrite &&
			  !kft_rt.ctl->max_log_bytes ? KFT_RING_RECS : 0;
	h->parent_session = kft_rt.parent_session;
	h->forked_ns = kft_rt.forked_ns;
	prctl(PR_GET_NAME, h->comm, 0, 0, 0);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(h->magic, KFT_THREAD_MAGIC, sizeof(KFT_THREAD_MAGIC));

	point_into(t, map, size);
	t->file_seq = seq;
	t->frames_cap = KFT_FIRST_FRAMES;
	t->sites.cap = KFT_FIRST_SITES;
	t->sites.index = new_site_index(SITE_SLOTS_FIRST);
	t->sites.nslots = SITE_SLOTS_FIRST;
	if (!t->sites.index) {
		munmap(map, size);
		t->hdr = NULL;
		goto fail;
	}
	/* take the first write faults of the log and of the sites now, not
	 * inside a traced call: on some file systems each costs a millisecond */
	if (room)
		memset(t->recs, 0, sizeof(*t->recs));
	memset(t->sites.sites, 0, sizeof(*t->sites.sites));
	return 0;
fail:
	if (!kft_rt.overwrite)
		take_log_bytes(-(int64_t)(room * sizeof(struct kft_rec)));
	return -1;
}

/* The log's calls run on the stack that ends at top. */
KFT_NOTRACE void kft_thread_set_stack(struct kft_tls *t, uintptr_t top)
{
	t->hdr->stack_base = top;
	t->lowest_sp = UINTPTR_MAX;
	t->watch_sp = 0;
	if (kft_rt.cfg.watch != KFT_WATCH_NONE && t->hdr->stack_base > kft_rt.cfg.watch_bytes)
		t->watch_sp = t->hdr->stack_base - kft_rt.cfg.watch_bytes;
	kft_set_sp_floor(t);
}

KFT_NOTRACE int kft_thread_setup(struct kft_tls *t)
{
	pthread_once(&exit_key_once, make_exit_key);
	if (map_new_file(t)) {
		__atomic_add_fetch(&kft_rt.ctl->threads_lost, 1, __ATOMIC_RELAXED);
		return -1;
	}
	kft_thread_set_stack(t, stack_top());
	pthread_setspecific(exit_key, t);
	kft_prefault_add(t, 0);
	kft_compress_add(t);
	if (!t->compress_slot) {
		t->hdr->ring = 0;	/* nothing compresses it: it grows */
		t->rec_mask = ~(uint64_t)0;
	}
	return 0;
}

/*
 * The parent's thread file is mapped shared: the moment fork returns, the
 * parent goes on and its frames change under the child (the child of a
 * shell's command substitution found its caller's frames gone, and with
 * -pg returned to a stale address). So the open frames are copied before
 * the fork, in the forking thread, and the child starts from that copy.
 */
KFT_NOTRACE void kft_thread_before_fork(struct kft_tls *t)
{
	uint64_t depth, n;

	t->fork_saved = false;
	t->fork_frames = NULL;
	if (!t->hdr)
		return;
	depth = t->hdr->depth;
	n = depth < t->frames_cap ? depth : t->frames_cap;
	if (n && !(t->fork_frames = malloc(n * sizeof(*t->fork_frames))))
		return;	/* the child reads the shared frames, as it may */
	if (n)
		memcpy(t->fork_frames, t->frames, n * sizeof(*t->fork_frames));
	t->fork_depth = depth;
	t->fork_nframes = n;
	t->fork_saved = true;
}

KFT_NOTRACE void kft_thread_after_fork(struct kft_tls *t)
{
	free(t->fork_frames);
	t->fork_frames = NULL;
	t->fork_saved = false;
}

/*
 * In a fork child: the inherited mapping is the parent's file. Give the
 * child its own, carrying over the open frames (the child returns through
 * them too), but not as its calls: they were entered, and are logged, by
 * the parent; the child logging them too would count each twice.
 */
KFT_NOTRACE int kft_thread_setup_forked(struct kft_tls *t)
{
	struct kft_thread_hdr *old = t->hdr;
	struct kft_frame *old_frames = t->fork_saved ? t->fork_frames : t->frames;
	size_t old_size = t->map_size;
	uint64_t old_cap = t->fork_saved ? t->fork_nframes : t->frames_cap;
	struct kft_site_slot *old_index = t->sites.index;
	size_t old_index_size = KFT_SITE_INDEX_BYTES(t->sites.nslots);
	uint64_t depth, n;

	if (!old)
		return 0;
	depth = t->fork_saved ? t->fork_depth : old->depth;
	t->hdr = NULL;
	kft_args_unmap(t);	/* the parent's: the child makes its own */
	/* the inherited index numbers the parent's sites: start anew */
	munmap(old_index, old_index_size);
	t->sites.index = NULL;
	if (map_new_file(t)) {
		__atomic_add_fetch(&kft_rt.ctl->threads_lost, 1, __ATOMIC_RELAXED);
		munmap(old, old_size);
		kft_thread_after_fork(t);
		t->dead = 1;
		return -1;
	}
	n = depth < old_cap ? depth : old_cap;
	/* room for them: those that find none are as past the shadow stack */
	while (t->frames_cap < n && kft_thread_more_frames(t))
		;
	if (n > t->frames_cap)
		n = t->frames_cap;
	memcpy(t->frames, old_frames, n * sizeof(*old_frames));
	kft_set_depth(t, depth);
	kft_log_inherited(t, n);
	for (uint64_t i = 0; i < n; i++)
		if (t->frames[i].flags & KFT_FRAME_LOGGED)
			t->frames[i].flags = (t->frames[i].flags & ~KFT_FRAME_LOGGED) |
					     KFT_FRAME_FILTERED;
	t->hdr->stack_base = old->stack_base;
	t->hdr->max_stack = old->max_stack;
	munmap(old, old_size);
	kft_thread_after_fork(t);
	return 0;
}
