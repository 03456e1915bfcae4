// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "thread-writer.h"

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int kft_thread_write(const char *dir, const struct kft_thread_out *t, struct kft_error *err)
{
	struct kft_thread_hdr h;
	char path[PATH_MAX];
	int fd, bad;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, KFT_THREAD_MAGIC, sizeof(KFT_THREAD_MAGIC));
	h.version = KFT_FORMAT_VERSION;
	h.hdr_size = sizeof(h);
	h.pid = t->pid;
	h.tid = t->tid;
	h.session = t->session;
	h.rec_size = sizeof(struct kft_rec);
	h.frame_size = sizeof(struct kft_frame);
	h.shadow_off = sizeof(h);
	h.shadow_cap = t->nframes;
	h.records_off = sizeof(h) + t->nframes * sizeof(struct kft_frame);
	h.capacity = t->nrecs;
	h.head = t->nrecs;
	h.depth = t->nframes;
	h.max_stack = t->max_stack;
	h.counters = t->counters;
	if (t->comm)
		snprintf(h.comm, sizeof(h.comm), "%s", t->comm);

	snprintf(path, sizeof(path), "%s/thread-%u-%u-0.kft", dir, t->session, t->tid);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return kft_error_set(err, "%s: %s", path, strerror(errno));
	bad = write_all(fd, &h, sizeof(h)) ||
	      write_all(fd, t->frames, t->nframes * sizeof(*t->frames)) ||
	      write_all(fd, t->recs, t->nrecs * sizeof(*t->recs));
	if (close(fd) || bad)
		return kft_error_set(err, "%s: write failed: %s", path, strerror(errno));
	return 0;
}
