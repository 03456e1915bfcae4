// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "../format/calls.h"
#include "depth-nest.h"
#include "functable.h"
#include "trace-tree.h"

struct kft_trace_tree {
	const struct kft_trace *tr;
	struct kft_calls *cs;
	struct kft_depth_nest nest;
	uint32_t row;
	uint64_t base_ns;	/* times count from the run's start */
	bool inherited;		/* with fork children's inherited calls */
	char pid[24];
};

static int tree_rewind(void *ctx, struct kft_error *err)
{
	struct kft_trace_tree *tt = ctx;

	kft_calls_close(tt->cs);
	kft_depth_nest_free(&tt->nest);
	tt->row = 0;
	tt->cs = tt->inherited ? kft_calls_open_trees(tt->tr, NULL, 0, err)
			       : kft_calls_open(tt->tr, NULL, 0, err);
	return tt->cs ? 0 : -1;
}

static int tree_next(void *ctx, struct kft_functable *ft, struct kft_spool_call *c,
		     struct kft_error *err)
{
	struct kft_trace_tree *tt = ctx;
	struct kft_call call;
	uint64_t image;

	do {
		if (!tt->cs || !kft_calls_next(tt->cs, &call)) {
			/* its index goes before the tree's places are found */
			kft_calls_close(tt->cs);
			tt->cs = NULL;
			return 0;
		}
	} while (call.dur_ns == -2);	/* stack-watch rows are no calls */
	memset(c, 0, sizeof(*c));
	image = kft_symbolizer_image(ft->sz, call.map_session, call.entry_ns);
	c->entry_ns = (int64_t)(call.entry_ns -
				(call.entry_ns >= tt->base_ns ? tt->base_ns : call.entry_ns));
	c->dur_ns = call.dur_ns;
	c->irq = call.flags & KFT_REC_SIGNAL;
	c->inherited = call.flags & KFT_CALL_INHERITED;
	c->tid = call.tid;
	kft_pid_label(tt->pid, call.tid, call.coroutine, c->irq);
	c->pid = tt->pid;
	if (kft_functable_addr(ft, image, call.func, &c->func) ||
	    !(c->caller = kft_functable_caller(ft, image, call.call_site)) ||
	    kft_depth_nest_add(&tt->nest, tt->row++, &call, &c->parent, &c->depth))
		return kft_error_set(err, "out of memory");
	return 1;
}

struct kft_trace_tree *kft_trace_tree_open(const struct kft_trace *tr, bool inherited,
					   struct kft_error *err)
{
	struct kft_trace_tree *tt = calloc(1, sizeof(*tt));

	if (!tt) {
		kft_error_set(err, "out of memory");
		return NULL;
	}
	tt->tr = tr;
	tt->inherited = inherited;
	tt->base_ns = kft_trace_base_ns(tr);
	return tt;
}

struct kft_call_source kft_trace_tree_source(struct kft_trace_tree *tt)
{
	return (struct kft_call_source){ .next = tree_next, .rewind = tree_rewind, .ctx = tt };
}

void kft_trace_tree_close(struct kft_trace_tree *tt)
{
	if (!tt)
		return;
	kft_calls_close(tt->cs);
	kft_depth_nest_free(&tt->nest);
	free(tt);
}
