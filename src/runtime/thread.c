// SPDX-License-Identifier: LGPL-2.1
/*
 * One memory-mapped file per thread: header, shadow stack, records, call
 * sites. The file is sparse, so only the pages a thread touches take
 * space, and it is shared with the page cache, so whatever the thread
 * wrote survives the process being killed. The sites' hash index is
 * private memory beside it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "runtime.h"

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

/*
 * The log pages past the last record that the prefault helper populated
 * take disk space for nothing: give them back. Records written after this
 * (by exit-time code) land in fresh zeroed pages, so nothing is lost.
 */
KFT_NOTRACE void kft_thread_trim(struct kft_tls *t)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t used, end;
	int saved = errno;

	kft_prefault_remove(t);
	if (!t->hdr || kft_rt.overwrite || t->hdr->head >= kft_rt.capacity)
		return;
	used = ((uintptr_t)(t->recs + t->hdr->head) + page - 1) & ~(page - 1);
	end = (uintptr_t)(t->recs + kft_rt.capacity) & ~(page - 1);
	if (used < end)
		madvise((void *)used, end - used, MADV_REMOVE);
	errno = saved;
}

/* At thread exit: keep the file (its open frames become -1), drop the map. */
static KFT_NOTRACE void thread_exit(void *arg)
{
	struct kft_tls *t = arg;

	t->dead = 1;
	kft_thread_trim(t);
	/* with -pg, open frames hold return addresses: keep them readable */
	if (t->hdr && !(kft_rt.hijacked && t->hdr->depth)) {
		munmap(t->hdr, t->map_size);
		munmap(t->sites.index, t->sites.nslots * sizeof(uint32_t));
		t->sites.index = NULL;
	}
	t->hdr = NULL;
}

#define SITE_SLOTS_FIRST 1024U			/* one page: 512 sites */
#define SITE_SLOTS_MAX (2 * KFT_SITES_CAP)

/* A zeroed index of n slots, faulted in now rather than in a traced call. */
static KFT_NOTRACE uint32_t *new_site_index(uint32_t n)
{
	void *p = mmap(NULL, n * sizeof(uint32_t), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* The site index is half full: double it (rare: log2 of the sites). */
KFT_NOTRACE int kft_thread_grow_sites(struct kft_tls *t)
{
	uint32_t *old = t->sites.index, *index;
	uint32_t old_n = t->sites.nslots;
	int saved = errno;

	if (old_n >= SITE_SLOTS_MAX || !(index = new_site_index(2 * old_n))) {
		errno = saved;
		return -1;
	}
	kft_site_reindex(&t->sites, index, 2 * old_n);
	munmap(old, old_n * sizeof(uint32_t));
	errno = saved;
	return 0;
}

static KFT_NOTRACE void make_exit_key(void)
{
	pthread_key_create(&exit_key, thread_exit);
}

static KFT_NOTRACE uintptr_t stack_top(uintptr_t *low)
{
	pthread_attr_t attr;
	void *addr = NULL;
	size_t size = 0;

	*low = 0;
	if (pthread_getattr_np(pthread_self(), &attr))
		return 0;
	pthread_attr_getstack(&attr, &addr, &size);
	pthread_attr_destroy(&attr);
	*low = (uintptr_t)addr;
	return (uintptr_t)addr + size;
}

static KFT_NOTRACE size_t file_size(void)
{
	return sizeof(struct kft_thread_hdr) + KFT_SHADOW_CAP * sizeof(struct kft_frame) +
	       kft_rt.capacity * sizeof(struct kft_rec) + KFT_SITES_CAP * sizeof(struct kft_site);
}

/* Create and map this thread's file; the header is complete on return. */
static KFT_NOTRACE int map_new_file(struct kft_tls *t)
{
	uint32_t seq = __atomic_fetch_add(&kft_rt.thread_seq, 1, __ATOMIC_RELAXED);
	size_t size = file_size();
	struct kft_thread_hdr *h;
	char name[96];
	void *map;
	int fd;

	snprintf(name, sizeof(name), "thread-%u-%d-%u.kft", kft_rt.session, gettid(), seq);
	fd = openat(kft_rt.dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size)) {
		close(fd);
		return -1;
	}
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
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
	h->records_off = sizeof(*h) + KFT_SHADOW_CAP * sizeof(struct kft_frame);
	h->capacity = kft_rt.capacity;
	h->sites_off = h->records_off + kft_rt.capacity * sizeof(struct kft_rec);
	h->sites_cap = KFT_SITES_CAP;
	prctl(PR_GET_NAME, h->comm, 0, 0, 0);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(h->magic, KFT_THREAD_MAGIC, sizeof(KFT_THREAD_MAGIC));

	t->hdr = h;
	t->map_size = size;
	t->frames = (struct kft_frame *)((char *)map + h->shadow_off);
	t->recs = (struct kft_rec *)((char *)map + h->records_off);
	t->sites.sites = (struct kft_site *)((char *)map + h->sites_off);
	t->sites.nsites = &h->nsites;
	t->sites.cap = KFT_SITES_CAP;
	t->sites.index = new_site_index(SITE_SLOTS_FIRST);
	t->sites.nslots = SITE_SLOTS_FIRST;
	if (!t->sites.index) {
		munmap(map, size);
		t->hdr = NULL;
		return -1;
	}
	/* take the first write faults of the log and of the sites now, not
	 * inside a traced call: on some file systems each costs a millisecond */
	memset(t->recs, 0, sizeof(*t->recs));
	memset(t->sites.sites, 0, sizeof(*t->sites.sites));
	return 0;
}

static KFT_NOTRACE void set_stack_limits(struct kft_tls *t)
{
	uintptr_t low;

	t->hdr->stack_base = stack_top(&low);
	t->lowest_sp = UINTPTR_MAX;
	t->watch_sp = 0;
	if (kft_rt.cfg.watch != KFT_WATCH_NONE && t->hdr->stack_base > kft_rt.cfg.watch_bytes)
		t->watch_sp = t->hdr->stack_base - kft_rt.cfg.watch_bytes;
}

KFT_NOTRACE int kft_thread_setup(struct kft_tls *t)
{
	pthread_once(&exit_key_once, make_exit_key);
	if (map_new_file(t))
		return -1;
	set_stack_limits(t);
	pthread_setspecific(exit_key, t);
	kft_prefault_add(t);
	return 0;
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
	struct kft_frame *old_frames = t->frames;
	size_t old_size = t->map_size;
	uint32_t *old_index = t->sites.index;
	size_t old_index_size = t->sites.nslots * sizeof(uint32_t);
	uint64_t depth, n;

	if (!old)
		return 0;
	t->hdr = NULL;
	/* the inherited index numbers the parent's sites: start anew */
	munmap(old_index, old_index_size);
	t->sites.index = NULL;
	if (map_new_file(t)) {
		munmap(old, old_size);
		t->dead = 1;
		return -1;
	}
	depth = old->depth;
	n = depth < KFT_SHADOW_CAP ? depth : KFT_SHADOW_CAP;
	memcpy(t->frames, old_frames, n * sizeof(*old_frames));
	for (uint64_t i = 0; i < n; i++)
		if (t->frames[i].flags & KFT_FRAME_LOGGED)
			t->frames[i].flags = (t->frames[i].flags & ~KFT_FRAME_LOGGED) |
					     KFT_FRAME_FILTERED;
	t->hdr->depth = depth;
	t->hdr->stack_base = old->stack_base;
	t->hdr->max_stack = old->max_stack;
	munmap(old, old_size);
	return 0;
}
