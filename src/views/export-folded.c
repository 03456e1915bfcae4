// SPDX-License-Identifier: GPL-2.0-only
/*
 * Folded stacks for flame graphs: each distinct call stack once, with the
 * time spent in it. The stacks are a tree of (parent, function) nodes, so
 * memory grows with the distinct stacks, not with the calls; each thread
 * keeps only the calls it has open.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/addrmap.h"
#include "../common/grow.h"
#include "export-common.h"

struct node {
	uint32_t parent;	/* 0: a root */
	uint32_t func;
	uint64_t ns;
};

struct frame {
	uint32_t depth;		/* as the stream gives it */
	uint32_t node;		/* its stack's node; its kept parent's if not kept */
	bool kept, irq;
	uint64_t dur, acc;	/* acc: its kept children's time */
};

struct thread {
	struct frame *v;
	size_t n, cap;
};

struct folded {
	struct export_ctx x;
	struct node *nodes;	/* nodes[0] unused */
	size_t nnodes, ncap;
	struct kft_addrmap at;	/* (parent, func) -> node */
	struct kft_addrmap thread_at;	/* (session, tid and stack) -> thread */
	struct thread *threads;
	size_t nthreads, tcap;
};

static int node_of(struct folded *fd, uint32_t parent, uint32_t func, uint32_t *node)
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
	fd->nodes[fd->nnodes] = (struct node){ parent, func, 0 };
	*node = (uint32_t)fd->nnodes++;
	*kft_addrmap_slot(&fd->at, parent, func) = *node;	/* the map may have moved */
	return 0;
}

static struct thread *thread_of(struct folded *fd, const struct kft_call *c)
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
static void settle(struct folded *fd, const struct frame *f)
{
	if (f->kept)
		fd->nodes[f->node].ns += fd->x.o->self ? (f->dur > f->acc ? f->dur - f->acc : 0)
						       : f->dur;
}

/* The innermost kept call open under which c goes, or NULL. */
static struct frame *kept_parent(struct thread *t, bool irq)
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

static int one_call(struct folded *fd, const struct kft_call *c)
{
	struct thread *t = thread_of(fd, c);
	bool irq = c->flags & KFT_REC_SIGNAL;
	struct frame f = { c->depth, 0, false, irq, export_duration(&fd->x, c), 0 }, *parent;
	uint32_t func;

	if (!t || export_func(&fd->x, c, &func))
		return -1;
	while (t->n && t->v[t->n - 1].depth >= c->depth)
		settle(fd, &t->v[--t->n]);
	parent = kept_parent(t, irq);
	f.kept = export_kept(&fd->x, c, func);
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

/* Node n's stack, outermost first, then its time. */
static void put_stack(struct folded *fd, FILE *out, uint32_t n, uint32_t **path, size_t *cap)
{
	size_t len = 0;

	for (uint32_t k = n; k; k = fd->nodes[k].parent) {
		if (kft_grow((void **)path, len, cap, sizeof(**path), 64))
			return;
		(*path)[len++] = fd->nodes[k].func;
	}
	while (len--)
		fprintf(out, "%s%s", fd->x.names.funcs[(*path)[len]].name, len ? ";" : "");
	fprintf(out, " %" PRIu64 "\n", fd->nodes[n].ns);
}

int kft_export_folded(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		      const struct kft_export_opts *o, struct kft_export_result *res,
		      struct kft_error *err)
{
	struct folded fd = { 0 };
	struct kft_calls *cs = NULL;
	struct kft_call c;
	uint32_t *path = NULL;
	size_t cap = 0;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	if (export_begin(&fd.x, tr, sz, o, err))
		return -1;
	if (!(cs = kft_calls_open(tr, NULL, 0, err)))
		goto out;
	fd.x.total = kft_calls_total(cs);
	while (kft_calls_next(cs, &c) > 0) {
		export_progress(&fd.x);
		if (c.dur_ns == -2)
			continue;	/* a stack-watch row */
		res->calls++;
		if (one_call(&fd, &c)) {
			kft_error_set(err, "out of memory");
			goto out;
		}
	}
	for (size_t i = 0; i < fd.nthreads; i++)
		while (fd.threads[i].n)
			settle(&fd, &fd.threads[i].v[--fd.threads[i].n]);
	for (size_t n = 1; n < fd.nnodes; n++) {
		if (!fd.nodes[n].ns)
			continue;
		put_stack(&fd, out, (uint32_t)n, &path, &cap);
		res->written++;
	}
	ret = ferror(out) ? kft_error_set(err, "write error") : 0;
out:
	kft_calls_close(cs);
	for (size_t i = 0; i < fd.nthreads; i++)
		free(fd.threads[i].v);
	free(fd.threads);
	free(fd.nodes);
	free(path);
	kft_addrmap_free(&fd.at);
	kft_addrmap_free(&fd.thread_at);
	export_end(&fd.x);
	return ret;
}
