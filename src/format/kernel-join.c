// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>

#include "../common/grow.h"
#include "kernel-join.h"

int kft_kernel_join_program(struct kft_kernel_join *j, const struct kft_call *c)
{
	while (j->n && j->open[j->n - 1].depth >= c->depth)
		j->n--;
	if (kft_grow((void **)&j->open, j->n, &j->cap, sizeof(*j->open), 64))
		return -1;
	j->open[j->n++] = (struct kft_join_open){
		c->depth, c->dur_ns < 0 ? UINT64_MAX : c->entry_ns + (uint64_t)c->dur_ns };
	j->session = c->session;
	return 0;
}

bool kft_kernel_join_parent(struct kft_kernel_join *j, const struct kft_call *c,
			    uint32_t *base)
{
	while (j->n && j->open[j->n - 1].end <= c->entry_ns)
		j->n--;
	if (!j->n)
		return false;
	*base = j->open[j->n - 1].depth + 1;
	return true;
}

void kft_kernel_join_free(struct kft_kernel_join *j)
{
	free(j->open);
	j->open = NULL;
	j->n = j->cap = 0;
}
