/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which process image each fork child came from, and when. A fork child
 * starts with its parent's memory map, so it saves no map of its own
 * until that changes; addresses of its calls resolve against its
 * parent's map as it stood at the fork (the symbolizer), then its own.
 * Read from the thread files' headers.
 */
#ifndef KFT_FORKS_H
#define KFT_FORKS_H

#include <stddef.h>
#include <stdint.h>

struct kft_fork {
	uint32_t child, parent;		/* process images (sessions) */
	uint64_t forked_ns;
};

struct kft_forks {
	struct kft_fork *v;		/* sorted by child */
	size_t n;
};

/* Every fork recorded in the trace directory dir (none if unreadable). */
void kft_forks_load(struct kft_forks *f, const char *dir);

/* The fork that started image child, or NULL. */
const struct kft_fork *kft_forks_find(const struct kft_forks *f, uint32_t child);

void kft_forks_free(struct kft_forks *f);

#endif
