// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/grow.h"
#include "forks.h"
#include "trace-format.h"

static int cmp_child(const void *a, const void *b)
{
	const struct kft_fork *x = a, *y = b;

	return x->child < y->child ? -1 : x->child > y->child;
}

void kft_forks_load(struct kft_forks *f, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t cap = 0, n = 0;

	memset(f, 0, sizeof(*f));
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct kft_thread_hdr h;
		int fd;

		if (!kft_is_thread_file_name(de->d_name))
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			continue;
		/* every thread of a fork child says so: the first one counts */
		if (pread(fd, &h, sizeof(h), 0) == sizeof(h) &&
		    !memcmp(h.magic, KFT_THREAD_MAGIC, sizeof(KFT_THREAD_MAGIC)) &&
		    h.parent_session && h.parent_session < h.session &&
		    !kft_grow((void **)&f->v, n, &cap, sizeof(*f->v), 16))
			f->v[n++] = (struct kft_fork){ h.session, (uint32_t)h.parent_session,
						       h.forked_ns };
		close(fd);
	}
	closedir(d);
	if (n)
		qsort(f->v, n, sizeof(*f->v), cmp_child);
	for (size_t i = 0; i < n; i++)
		if (!f->n || f->v[f->n - 1].child != f->v[i].child)
			f->v[f->n++] = f->v[i];
}

const struct kft_fork *kft_forks_find(const struct kft_forks *f, uint32_t child)
{
	struct kft_fork key = { .child = child };

	return f->n ? bsearch(&key, f->v, f->n, sizeof(*f->v), cmp_child) : NULL;
}

void kft_forks_free(struct kft_forks *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}
