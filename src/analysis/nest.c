// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>

#include "../common/grow.h"
#include "nest.h"

enum kft_nest_place kft_nest_place(struct kft_nest *n, const struct kft_call *c,
				   uint32_t *level)
{
	const struct kft_nest_open *top;

	while (n->n && n->open[n->n - 1].call.depth >= c->depth)
		n->n--;
	*level = 0;
	if (!n->n)
		return KFT_NEST_ROOT;
	top = &n->open[n->n - 1];
	if ((c->flags & KFT_REC_SIGNAL) && !(top->call.flags & KFT_REC_SIGNAL))
		return KFT_NEST_HANDLER;
	*level = top->level + 1;
	return KFT_NEST_CHILD;
}

struct kft_nest_open *kft_nest_push(struct kft_nest *n, const struct kft_call *c,
				    uint32_t level)
{
	if (kft_grow((void **)&n->open, n->n, &n->cap, sizeof(*n->open), 32))
		return NULL;
	n->open[n->n] = (struct kft_nest_open){ .call = *c, .level = level };
	return &n->open[n->n++];
}

void kft_nest_free(struct kft_nest *n)
{
	free(n->open);
	n->open = NULL;
	n->n = n->cap = 0;
}
