// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../format/trace-files.h"
#include "../format/trace-format.h"
#include "spares.h"

#define READY 4			/* spares kept ready, at most: one until a
				 * second is taken, then as many as taken */

struct kft_spares {
	pthread_t tid;
	int dirfd;
	struct kft_control *ctl;
	int stop;
};

static const char zeros[64 << 10];

/*
 * spare-n: a new thread file's size, with the room the runtime takes for
 * a new log written with zeros (its header and first frames, its first
 * sites, its first records: thread.c), which reserves their blocks and
 * puts their pages in the cache for the thread that takes it.
 */
static int make_spare(int dirfd, uint32_t n)
{
	const struct {
		uint64_t off, len;
	} parts[] = {
		{ 0, sizeof(struct kft_thread_hdr) + KFT_FIRST_FRAMES * sizeof(struct kft_frame) },
		{ KFT_SITES_OFF, KFT_FIRST_SITES * sizeof(struct kft_site) },
		{ KFT_RECORDS_OFF, KFT_FIRST_RECORDS * sizeof(struct kft_rec) },
	};
	char name[32];
	int fd, ret = 0;

	snprintf(name, sizeof(name), KFT_SPARE_PREFIX "%u", n);
	fd = openat(dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)KFT_SPARE_SIZE))
		ret = -1;
	for (size_t i = 0; !ret && i < sizeof(parts) / sizeof(parts[0]); i++)
		for (uint64_t at = 0; !ret && at < parts[i].len; at += sizeof(zeros)) {
			size_t len = parts[i].len - at < sizeof(zeros) ? parts[i].len - at
								      : sizeof(zeros);

			if (pwrite(fd, zeros, len, (off_t)(parts[i].off + at)) != (ssize_t)len)
				ret = -1;
		}
	close(fd);
	if (ret)
		unlinkat(dirfd, name, 0);
	return ret;
}

static void *maker(void *arg)
{
	struct kft_spares *s = arg;
	struct kft_control *ctl = s->ctl;

	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		uint32_t taken = __atomic_load_n(&ctl->spares_taken, __ATOMIC_ACQUIRE);
		uint32_t made = __atomic_load_n(&ctl->spares_made, __ATOMIC_RELAXED);
		struct timespec nap = { 0, 50 * 1000 * 1000 };
		uint32_t ready = taken < 2 ? 1 : taken < READY ? taken : READY;

		if (made - taken < ready && made < UINT32_MAX) {
			if (make_spare(s->dirfd, made))
				break;	/* no room, say: the threads make their own */
			__atomic_store_n(&ctl->spares_made, made + 1, __ATOMIC_RELEASE);
			continue;
		}
		/* until a thread takes one (it wakes us), or a while */
		syscall(SYS_futex, &ctl->spares_taken, FUTEX_WAIT, taken, &nap, NULL, 0);
	}
	return NULL;
}

struct kft_spares *kft_spares_start(const char *dir)
{
	struct kft_spares *s = calloc(1, sizeof(*s));
	int fd;

	if (!s)
		return NULL;
	s->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = s->dirfd < 0 ? -1 : openat(s->dirfd, KFT_CONTROL_FILE, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	s->ctl = fd < 0 ? MAP_FAILED
			: mmap(NULL, sizeof(*s->ctl), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (fd >= 0)
		close(fd);
	if (s->ctl == MAP_FAILED || pthread_create(&s->tid, NULL, maker, s)) {
		if (s->ctl != MAP_FAILED)
			munmap(s->ctl, sizeof(*s->ctl));
		if (s->dirfd >= 0)
			close(s->dirfd);
		free(s);
		return NULL;
	}
	return s;
}

void kft_spares_stop(struct kft_spares *s)
{
	uint32_t made;
	char name[32];

	if (!s)
		return;
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
	/* it may be about to wait: wake it until it has seen the stop */
	while (pthread_tryjoin_np(s->tid, NULL) == EBUSY) {
		syscall(SYS_futex, &s->ctl->spares_taken, FUTEX_WAKE, 1, NULL, NULL, 0);
		usleep(200);
	}
	/* a thread still running may have taken a spare and not yet renamed
	 * it: then its rename fails, and it makes its own file */
	made = __atomic_load_n(&s->ctl->spares_made, __ATOMIC_ACQUIRE);
	for (uint32_t n = 0; n < made; n++) {
		snprintf(name, sizeof(name), KFT_SPARE_PREFIX "%u", n);
		unlinkat(s->dirfd, name, 0);
	}
	munmap(s->ctl, sizeof(*s->ctl));
	close(s->dirfd);
	free(s);
}
