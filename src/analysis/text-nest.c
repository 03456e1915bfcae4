// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "calltree.h"
#include "text-nest.h"

/* kd 1.1 kept an unfinished call open for this long */
#define CLASSIC_OPEN_NS (9999999LL * 1000)

struct kft_nest_open {
	int64_t entry_ns, end_ns;
	int64_t tid;
	uint32_t row, func, caller, coroutine, depth;
	bool irq;
};

static bool same_stack(const struct kft_nest_open *o, const struct kft_nest_row *r)
{
	return o->tid == r->tid && o->coroutine == r->coroutine && !o->irq && !r->irq;
}

/*
 * An unfinished call is open for good, yet its thread's later rows show
 * when it ended: a row that nests under an older call of its stack (or
 * that repeats the unfinished call's function and caller, as its sibling
 * would) began after it, and after every call its stack opened since.
 * from: the first open call that row r shows ended, if it is unfinished.
 */
static void close_ended(struct kft_text_nest *n, size_t from, const struct kft_nest_row *r)
{
	size_t keep = from;

	for (size_t j = from; j < n->nopen; j++)
		if (!same_stack(&n->open[j], r) || n->open[j].end_ns != INT64_MAX)
			n->open[keep++] = n->open[j];
	n->nopen = keep;
}

int kft_text_nest_add(struct kft_text_nest *n, uint32_t row, const struct kft_nest_row *r,
		      uint32_t *parent, uint32_t *depth)
{
	struct kft_nest_open *o;
	size_t keep = 0;

	*parent = KFT_NONE;
	*depth = 0;
	/* the calls still open at this entry */
	for (size_t j = 0; j < n->nopen; j++) {
		o = &n->open[j];
		if (o->entry_ns <= r->entry_ns && r->entry_ns <= o->end_ns)
			n->open[keep++] = *o;
	}
	n->nopen = keep;
	/* the newest open call of the caller's name: kd took any thread's;
	 * we take the same thread's, or any for an interrupt */
	for (size_t j = n->nopen; r->caller != KFT_NONE && j-- > 0;) {
		o = &n->open[j];
		if (o->func != r->caller)
			continue;
		if (n->classic || r->irq ||
		    (o->tid == r->tid && o->coroutine == r->coroutine && !o->irq)) {
			*parent = o->row;
			*depth = o->depth + 1;
			if (!n->classic)
				close_ended(n, j + 1, r);
			break;
		}
	}
	for (size_t j = 0; !n->classic && *parent == KFT_NONE && j < n->nopen; j++) {
		o = &n->open[j];
		if (same_stack(o, r) && o->end_ns == INT64_MAX && o->func == r->func &&
		    o->caller == r->caller) {
			close_ended(n, j, r);
			break;
		}
	}
	if (kft_grow((void **)&n->open, n->nopen, &n->cap, sizeof(*n->open), 64))
		return -1;
	o = &n->open[n->nopen++];
	o->entry_ns = r->entry_ns;
	if (r->dur_ns >= 0)
		o->end_ns = r->entry_ns + r->dur_ns + (n->classic ? 0 : r->unit_ns);
	else
		o->end_ns = n->classic ? r->entry_ns + CLASSIC_OPEN_NS : INT64_MAX;
	o->tid = r->tid;
	o->row = row;
	o->func = r->func;
	o->caller = r->caller;
	o->coroutine = r->coroutine;
	o->depth = *depth;
	o->irq = r->irq;
	return 0;
}

void kft_text_nest_free(struct kft_text_nest *n)
{
	free(n->open);
	memset(n, 0, sizeof(*n));
}
