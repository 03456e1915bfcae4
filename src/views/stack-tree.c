// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "../analysis/nest.h"
#include "../common/grow.h"
#include "stack-tree.h"

/* A thread's calls open: each one's tag is its stack's node (its kept
 * parent's if not kept), mark whether it is kept, acc its kept children's
 * time. A fork child's inherited call is a stack's start, its time the
 * parent's. */
struct stack_thread {
	struct kft_nest open;
};

static int node_of(struct stack_tree *fd, uint32_t parent, uint32_t func, uint32_t *node)
{
	uint32_t *slot = kft_addrmap_slot(&fd->at, parent, func);

	if (!slot)
		return -1;
	if (*slot != KFT_ADDRMAP_NONE) {
		*node = *slot;
		return 0;
	}
	if (!fd->nnodes)
		fd->nnodes = 1;
	if (kft_grow((void **)&fd->nodes, fd->nnodes, &fd->ncap, sizeof(*fd->nodes), 256))
		return -1;
	fd->nodes[fd->nnodes] = (struct stack_node){ parent, func, 0, 0 };
	*node = (uint32_t)fd->nnodes++;
	*kft_addrmap_slot(&fd->at, parent, func) = *node;	/* the map may have moved */
	return 0;
}

static struct stack_thread *thread_of(struct stack_tree *fd, const struct kft_call *c)
{
	uint32_t *slot = kft_addrmap_slot(&fd->thread_at, c->session,
					  (uint64_t)c->coroutine << 32 | c->tid);

	if (!slot)
		return NULL;
	if (*slot == KFT_ADDRMAP_NONE) {
		if (kft_grow((void **)&fd->threads, fd->nthreads, &fd->tcap,
			     sizeof(*fd->threads), 16))
			return NULL;
		memset(&fd->threads[fd->nthreads], 0, sizeof(fd->threads[fd->nthreads]));
		*kft_addrmap_slot(&fd->thread_at, c->session,
				  (uint64_t)c->coroutine << 32 | c->tid) = (uint32_t)fd->nthreads++;
		return &fd->threads[fd->nthreads - 1];
	}
	return &fd->threads[*slot];
}

/* A call leaves its thread's stack: its time goes to its stack. */
static void settle(struct stack_tree *fd, struct kft_nest *open)
{
	const struct kft_nest_open *f = kft_nest_top(open);
	uint64_t dur = kft_export_duration(&fd->x, &f->call);

	if (f->mark && !(f->call.flags & KFT_CALL_INHERITED)) {
		fd->nodes[f->tag].ns += fd->x.o->self ? (dur > f->acc ? dur - f->acc : 0) : dur;
		fd->nodes[f->tag].calls++;
	}
	kft_nest_pop(open);
}

/* The innermost kept call open under which c goes, or NULL. */
static struct kft_nest_open *kept_parent(struct kft_nest *open, bool irq)
{
	for (size_t i = open->n; i-- > 0;) {
		/* a signal handler's chain is a stack of its own */
		if (irq && !(open->open[i].call.flags & KFT_REC_SIGNAL))
			return NULL;
		if (open->open[i].mark)
			return &open->open[i];
	}
	return NULL;
}

static int one_call(struct stack_tree *fd, const struct kft_call *c)
{
	struct stack_thread *t = thread_of(fd, c);
	struct kft_nest_open *parent, *f;
	uint32_t func, node;
	bool kept;

	if (!t || kft_export_func(&fd->x, c, &func))
		return -1;
	while (kft_nest_closes(&t->open, c))
		settle(fd, &t->open);
	parent = kept_parent(&t->open, c->flags & KFT_REC_SIGNAL);
	kept = kft_export_kept(&fd->x, c, func);
	node = parent ? parent->tag : 0;
	if (kept) {
		if (node_of(fd, node, func, &node))
			return -1;
		if (parent)
			parent->acc += kft_export_duration(&fd->x, c);
	}
	if (!(f = kft_nest_push(&t->open, c, (uint32_t)t->open.n)))
		return -1;
	f->tag = node;
	f->mark = kept;
	return 0;
}

int kft_stack_tree_build(struct stack_tree *st, const struct kft_trace *tr,
			 struct kft_symbolizer *sz, const struct kft_export_opts *o,
			 struct kft_export_result *res, struct kft_error *err)
{
	struct kft_calls *cs;
	struct kft_call c;
	int ret = -1;

	memset(st, 0, sizeof(*st));
	memset(res, 0, sizeof(*res));
	if (kft_export_begin(&st->x, tr, sz, o, err) ||
	    !(cs = kft_calls_open_trees(tr, NULL, 0, err)))
		return -1;
	st->x.total = kft_calls_total(cs);
	while (kft_calls_next(cs, &c) > 0) {
		kft_export_progress(&st->x);
		if (c.dur_ns == -2)
			continue;	/* a stack-watch row */
		res->calls += !(c.flags & KFT_CALL_INHERITED);
		if (one_call(st, &c)) {
			kft_error_set(err, "out of memory");
			goto out;
		}
	}
	for (size_t i = 0; i < st->nthreads; i++)
		while (kft_nest_top(&st->threads[i].open))
			settle(st, &st->threads[i].open);
	ret = 0;
out:
	kft_calls_close(cs);
	return ret;
}

void kft_stack_tree_free(struct stack_tree *st)
{
	for (size_t i = 0; i < st->nthreads; i++)
		kft_nest_free(&st->threads[i].open);
	free(st->threads);
	free(st->nodes);
	kft_addrmap_free(&st->at);
	kft_addrmap_free(&st->thread_at);
	kft_export_end(&st->x);
}
