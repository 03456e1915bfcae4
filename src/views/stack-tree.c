// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "stack-tree.h"

struct frame {
	uint32_t depth;		/* as the stream gives it */
	uint32_t node;		/* its stack's node; its kept parent's if not kept */
	bool kept, irq;
	bool inherited;		/* a fork child's: a stack's start, its time the
				 * parent's */
	uint64_t dur, acc;	/* acc: its kept children's time */
};

struct stack_thread {
	struct frame *v;
	size_t n, cap;
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
static void settle(struct stack_tree *fd, const struct frame *f)
{
	if (!f->kept || f->inherited)
		return;
	fd->nodes[f->node].ns += fd->x.o->self ? (f->dur > f->acc ? f->dur - f->acc : 0) : f->dur;
	fd->nodes[f->node].calls++;
}

/* The innermost kept call open under which c goes, or NULL. */
static struct frame *kept_parent(struct stack_thread *t, bool irq)
{
	for (size_t i = t->n; i-- > 0;) {
		/* a signal handler's chain is a stack of its own */
		if (irq && !t->v[i].irq)
			return NULL;
		if (t->v[i].kept)
			return &t->v[i];
	}
	return NULL;
}

static int one_call(struct stack_tree *fd, const struct kft_call *c)
{
	struct stack_thread *t = thread_of(fd, c);
	bool irq = c->flags & KFT_REC_SIGNAL;
	struct frame f = { c->depth,
			   0,
			   false,
			   irq,
			   c->flags & KFT_CALL_INHERITED,
			   kft_export_duration(&fd->x, c),
			   0 },
		     *parent;
	uint32_t func;

	if (!t || kft_export_func(&fd->x, c, &func))
		return -1;
	while (t->n && t->v[t->n - 1].depth >= c->depth)
		settle(fd, &t->v[--t->n]);
	parent = kept_parent(t, irq);
	f.kept = kft_export_kept(&fd->x, c, func);
	f.node = parent ? parent->node : 0;
	if (f.kept) {
		if (node_of(fd, f.node, func, &f.node))
			return -1;
		if (parent)
			parent->acc += f.dur;
	}
	if (kft_grow((void **)&t->v, t->n, &t->cap, sizeof(*t->v), 64))
		return -1;
	t->v[t->n++] = f;
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
		while (st->threads[i].n)
			settle(st, &st->threads[i].v[--st->threads[i].n]);
	ret = 0;
out:
	kft_calls_close(cs);
	return ret;
}

void kft_stack_tree_free(struct stack_tree *st)
{
	for (size_t i = 0; i < st->nthreads; i++)
		free(st->threads[i].v);
	free(st->threads);
	free(st->nodes);
	kft_addrmap_free(&st->at);
	kft_addrmap_free(&st->thread_at);
	kft_export_end(&st->x);
}
