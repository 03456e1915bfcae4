// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "site-table.h"
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

/* t's records packed, and the sites they name, in tab (malloc'ed). */
static int pack(const struct kft_thread_out *t, struct kft_thread_hdr *h, struct kft_rec **recs,
		struct kft_site_table *tab)
{
	size_t cap = 2;

	while (cap < t->nrecs && cap <= KFT_SITE_MAX)
		cap *= 2;
	tab->cap = (uint32_t)cap;
	tab->nslots = (uint32_t)(2 * cap);
	tab->nsites = &h->nsites;
	tab->sites = malloc(cap * sizeof(*tab->sites));
	tab->index = calloc(2 * cap, sizeof(*tab->index));
	*recs = malloc((t->nrecs ? t->nrecs : 1) * sizeof(**recs));
	if (!tab->sites || !tab->index || !*recs)
		return -1;
	h->head = 0;
	for (size_t i = 0; i < t->nrecs; i++) {
		const struct kft_rec_data *d = &t->recs[i];
		uint32_t site = kft_site_id(tab, d->func, d->call_site);

		if (site == KFT_SITE_NONE) {
			h->counters.sites_full++;
			continue;
		}
		kft_rec_pack(&(*recs)[h->head++], d->entry_ns, d->depth, d->dur, site, d->flags);
	}
	return 0;
}

int kft_thread_write(const char *dir, const struct kft_thread_out *t, struct kft_error *err)
{
	struct kft_site_table tab = { 0 };
	struct kft_rec *recs = NULL;
	struct kft_thread_hdr h;
	char path[PATH_MAX];
	int fd, bad, ret;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, KFT_THREAD_MAGIC, sizeof(KFT_THREAD_MAGIC));
	h.version = KFT_FORMAT_VERSION;
	h.hdr_size = sizeof(h);
	h.pid = t->pid;
	h.tid = t->tid;
	h.session = t->session;
	h.parent_session = t->parent_session;
	h.forked_ns = t->forked_ns;
	h.rec_size = sizeof(struct kft_rec);
	h.frame_size = sizeof(struct kft_frame);
	h.shadow_off = sizeof(h);
	h.shadow_cap = t->nframes;
	h.records_off = sizeof(h) + t->nframes * sizeof(struct kft_frame);
	h.depth = t->nframes;
	h.max_stack = t->max_stack;
	h.counters = t->counters;
	if (t->comm)
		snprintf(h.comm, sizeof(h.comm), "%s", t->comm);
	if (pack(t, &h, &recs, &tab)) {
		ret = kft_error_set(err, "out of memory for %zu records", t->nrecs);
		goto out;
	}
	h.capacity = h.head;
	h.sites_off = h.records_off + h.capacity * sizeof(struct kft_rec);
	h.sites_cap = h.nsites;

	snprintf(path, sizeof(path), "%s/thread-%u-%u-0.kft", dir, t->session, t->tid);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		ret = kft_error_set(err, "%s: %s", path, strerror(errno));
		goto out;
	}
	bad = write_all(fd, &h, sizeof(h)) ||
	      write_all(fd, t->frames, t->nframes * sizeof(*t->frames)) ||
	      write_all(fd, recs, h.head * sizeof(*recs)) ||
	      write_all(fd, tab.sites, h.nsites * sizeof(*tab.sites));
	ret = 0;
	if (close(fd) || bad)
		ret = kft_error_set(err, "%s: write failed: %s", path, strerror(errno));
out:
	free(recs);
	free(tab.sites);
	free(tab.index);
	return ret;
}
