// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>

#include "entry-order.h"

#define END UINT32_MAX

/* A run of calls already in entry order, as a linked list. */
struct subtree {
	uint32_t head, tail;
	uint32_t depth;		/* of its first call */
};

long kft_entry_order(const struct kft_thread_file *th, uint32_t *order)
{
	size_t total = th->nrecs + th->nframes;
	uint32_t *next = malloc((total ? total : 1) * sizeof(*next));
	struct subtree *stack = malloc((total ? total : 1) * sizeof(*stack));
	size_t top = 0, n = 0;
	long ret = -1;

	if (!next || !stack)
		goto out;
	/* records in the order they ended, then the open frames, innermost
	 * first, as if they ended now */
	for (size_t i = 0; i < total; i++) {
		uint32_t idx, depth;
		size_t f, p;
		struct subtree s;

		if (i < th->nrecs) {
			struct kft_rec_data r;

			kft_thread_rec(th, i, &r);
			if (r.dur == KFT_DUR_WATCH)
				goto out;
			idx = (uint32_t)i;
			depth = r.depth;
		} else {
			f = th->nframes - 1 - (i - th->nrecs);
			if (!(th->frames[f].flags & KFT_FRAME_LOGGED))
				continue;
			idx = (uint32_t)(th->nrecs + f);
			depth = (uint32_t)f;
		}
		/* the pending calls deeper than this one happened inside it,
		 * in the order they sit on the stack */
		p = top;
		while (p && stack[p - 1].depth > depth)
			p--;
		s.head = s.tail = idx;
		s.depth = depth;
		next[idx] = END;
		for (size_t k = p; k < top; k++) {
			next[s.tail] = stack[k].head;
			s.tail = stack[k].tail;
		}
		top = p;
		stack[top++] = s;
	}
	for (size_t k = 0; k < top; k++)
		for (uint32_t i = stack[k].head; i != END; i = next[i])
			order[n++] = i;
	ret = (long)n;
out:
	free(next);
	free(stack);
	return ret;
}
