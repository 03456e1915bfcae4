// SPDX-License-Identifier: GPL-2.0-only
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "calltree.h"
#include "depth-nest.h"

struct open_call {
	uint32_t row, recorded_depth, depth;
	bool irq;
};

struct kft_depth_stack {
	uint32_t session, tid, coroutine;
	struct open_call *open;		/* outermost first */
	size_t n, cap;
};

static struct kft_depth_stack *stack_of(struct kft_depth_nest *n, const struct kft_call *c)
{
	struct kft_depth_stack *bigger;

	for (size_t i = n->nstacks; i-- > 0;)
		if (n->stacks[i].session == c->session && n->stacks[i].tid == c->tid &&
		    n->stacks[i].coroutine == c->coroutine)
			return &n->stacks[i];
	bigger = realloc(n->stacks, (n->nstacks + 1) * sizeof(*bigger));
	if (!bigger)
		return NULL;
	n->stacks = bigger;
	memset(&bigger[n->nstacks], 0, sizeof(*bigger));
	bigger[n->nstacks].session = c->session;
	bigger[n->nstacks].tid = c->tid;
	bigger[n->nstacks].coroutine = c->coroutine;
	return &bigger[n->nstacks++];
}

int kft_depth_nest_add(struct kft_depth_nest *n, uint32_t row, const struct kft_call *c,
		       uint32_t *parent, uint32_t *depth)
{
	struct kft_depth_stack *st = stack_of(n, c);
	bool irq = c->flags & KFT_REC_SIGNAL;

	*parent = KFT_NONE;
	*depth = 0;
	if (!st)
		return -1;
	while (st->n && st->open[st->n - 1].recorded_depth >= c->depth)
		st->n--;
	if (st->n && !(irq && !st->open[st->n - 1].irq)) {
		*parent = st->open[st->n - 1].row;
		*depth = st->open[st->n - 1].depth + 1;
	}
	if (kft_grow((void **)&st->open, st->n, &st->cap, sizeof(*st->open), 64))
		return -1;
	st->open[st->n++] = (struct open_call){ row, c->depth, *depth, irq };
	return 0;
}

void kft_depth_nest_free(struct kft_depth_nest *n)
{
	for (size_t i = 0; i < n->nstacks; i++)
		free(n->stacks[i].open);
	free(n->stacks);
	memset(n, 0, sizeof(*n));
}
