// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../format/calls.h"
#include "calltree.h"
#include "functable.h"
#include "text-nest.h"

struct builder {
	struct kft_calltree *t;
	struct kft_functable ft;
	struct kft_error *err;
	size_t ncap;
};

static int oom(struct builder *b)
{
	return kft_error_set(b->err, "out of memory");
}

static struct kft_node *new_node(struct builder *b)
{
	struct kft_calltree *t = b->t;
	struct kft_node *n;

	if (t->nnodes == b->ncap) {
		b->ncap = b->ncap ? 2 * b->ncap : 1024;
		n = realloc(t->nodes, b->ncap * sizeof(*n));
		if (!n)
			return NULL;
		t->nodes = n;
	}
	n = &t->nodes[t->nnodes++];
	memset(n, 0, sizeof(*n));
	n->parent = n->first_child = n->last_child = n->next_sibling = KFT_NONE;
	return n;
}

static void attach(struct kft_calltree *t, uint32_t child, uint32_t parent)
{
	struct kft_node *c = &t->nodes[child];

	c->parent = parent;
	if (parent == KFT_NONE)
		return;
	c->depth = t->nodes[parent].depth + 1;
	if (t->nodes[parent].last_child == KFT_NONE)
		t->nodes[parent].first_child = child;
	else
		t->nodes[t->nodes[parent].last_child].next_sibling = child;
	t->nodes[parent].last_child = child;
}

/* Roots, locals, and names that tell apart functions sharing one. */
static int finish(struct builder *b, bool classic)
{
	struct kft_calltree *t = b->t;

	t->roots = malloc((t->nnodes ? t->nnodes : 1) * sizeof(*t->roots));
	if (!t->roots)
		return oom(b);
	for (size_t i = 0; i < t->nnodes; i++) {
		struct kft_node *n = &t->nodes[i];
		int64_t local = n->dur_ns;

		if (n->parent == KFT_NONE)
			t->roots[t->nroots++] = (uint32_t)i;
		for (uint32_t c = n->first_child; c != KFT_NONE; c = t->nodes[c].next_sibling) {
			if (classic)
				local -= t->nodes[c].dur_ns;
			else if (t->nodes[c].dur_ns > 0)
				local -= t->nodes[c].dur_ns;
		}
		if (!classic && n->dur_ns < 0)
			local = -1;
		else if (local < 0)
			local = 0;
		n->local_ns = local;
	}
	return kft_functable_finish(&b->ft) ? oom(b) : 0;
}

static void builder_done(struct builder *b)
{
	kft_functable_done(&b->ft);
}

/* ---- kft traces: records carry their depth ---------------------------- */

struct thread_stack {
	uint32_t session, tid, coroutine;
	uint32_t *open;		/* nodes, outermost first */
	size_t n, cap;
};

static struct thread_stack *stack_of(struct thread_stack **all, size_t *nall, uint32_t session,
				     uint32_t tid, uint32_t coroutine)
{
	struct thread_stack *bigger;

	for (size_t i = *nall; i-- > 0;)
		if ((*all)[i].session == session && (*all)[i].tid == tid &&
		    (*all)[i].coroutine == coroutine)
			return &(*all)[i];
	bigger = realloc(*all, (*nall + 1) * sizeof(*bigger));
	if (!bigger)
		return NULL;
	*all = bigger;
	memset(&bigger[*nall], 0, sizeof(*bigger));
	bigger[*nall].session = session;
	bigger[*nall].tid = tid;
	bigger[*nall].coroutine = coroutine;
	return &bigger[(*nall)++];
}

int kft_calltree_from_trace(struct kft_calltree *t, const struct kft_trace *tr,
			    struct kft_symbolizer *sz, struct kft_error *err)
{
	struct builder b = { .t = t, .err = err };
	struct thread_stack *stacks = NULL;
	size_t nstacks = 0;
	struct kft_calls *cs;
	struct kft_call call;
	uint64_t base = tr->ctl.first_start_ns == UINT64_MAX ? 0 : tr->ctl.first_start_ns;
	int ret = -1;

	memset(t, 0, sizeof(*t));
	t->base_ns = base;
	kft_functable_init(&b.ft, t, sz);
	cs = kft_calls_open(tr, NULL, 0, err);
	if (!cs || kft_switches_copy(&t->switches, &tr->switches)) {
		if (cs)
			oom(&b);
		kft_calls_close(cs);
		builder_done(&b);
		kft_calltree_free(t);
		return -1;
	}
	while (kft_calls_next(cs, &call)) {
		const struct kft_call *c = &call;
		struct thread_stack *st;
		struct kft_node *n;
		uint32_t idx, parent = KFT_NONE;
		uint64_t image;

		if (c->dur_ns == -2)
			continue;	/* stack-watch rows are no calls */
		n = new_node(&b);
		st = stack_of(&stacks, &nstacks, c->session, c->tid, c->coroutine);
		if (!n || !st) {
			oom(&b);
			goto out;
		}
		idx = (uint32_t)(n - t->nodes);
		n->entry_ns = (int64_t)(c->entry_ns - (c->entry_ns >= base ? base : c->entry_ns));
		n->dur_ns = c->dur_ns;
		n->tid = c->tid;
		n->coroutine = c->coroutine;
		n->irq = c->flags & KFT_REC_SIGNAL;
		n->depth = c->depth;	/* for now: the recorded depth */
		kft_pid_label(n->pid, c->tid, c->coroutine, n->irq);
		image = kft_symbolizer_image(sz, c->session, c->entry_ns);
		if (kft_functable_addr(&b.ft, image, c->func, &n->func)) {
			oom(&b);
			goto out;
		}
		n->caller = kft_functable_caller(&b.ft, image, c->call_site);
		if (!n->caller) {
			oom(&b);
			goto out;
		}
		/* the open call just above in this thread is the parent, unless
		 * this call starts a signal handler: that is a root of its own */
		while (st->n && t->nodes[st->open[st->n - 1]].depth >= c->depth)
			st->n--;
		if (st->n && !(n->irq && !t->nodes[st->open[st->n - 1]].irq))
			parent = st->open[st->n - 1];
		if (st->n == st->cap) {
			uint32_t *bigger;

			st->cap = st->cap ? 2 * st->cap : 64;
			bigger = realloc(st->open, st->cap * sizeof(*bigger));
			if (!bigger) {
				oom(&b);
				goto out;
			}
			st->open = bigger;
		}
		st->open[st->n++] = idx;
		attach(t, idx, parent);
	}
	/* tree depth from here on, not the recorded one */
	for (size_t i = 0; i < t->nnodes; i++)
		if (t->nodes[i].parent == KFT_NONE)
			t->nodes[i].depth = 0;
		else
			t->nodes[i].depth = t->nodes[t->nodes[i].parent].depth + 1;
	ret = finish(&b, false);
out:
	for (size_t i = 0; i < nstacks; i++)
		free(stacks[i].open);
	free(stacks);
	kft_calls_close(cs);
	builder_done(&b);
	if (ret)
		kft_calltree_free(t);
	return ret;
}

/* ---- text logs: nesting from times and caller names ------------------- */

int kft_calltree_from_text(struct kft_calltree *t, const struct kft_text_log *log, bool classic,
			   struct kft_error *err)
{
	struct builder b = { .t = t, .err = err };
	struct kft_text_nest nest = { .classic = classic };
	int ret = -1;

	memset(t, 0, sizeof(*t));
	kft_functable_init(&b.ft, t, NULL);
	for (size_t i = 0; i < log->nrows; i++) {
		const struct kft_text_row *r = &log->rows[i];
		struct kft_nest_row nr;
		struct kft_node *n;
		uint32_t idx, parent, depth;
		char name[1024];

		if (r->delta_us == -2)
			continue;
		n = new_node(&b);
		if (!n) {
			oom(&b);
			goto out;
		}
		idx = (uint32_t)(n - t->nodes);
		n->entry_ns = r->entry_us * 1000;
		n->dur_ns = r->delta_us < 0 ? -1 : r->delta_us * 1000;
		n->tid = r->tid;
		n->coroutine = r->coroutine;
		n->irq = r->irq;
		n->args = r->args;
		snprintf(n->pid, sizeof(n->pid), "%s", r->pid);
		if (kft_functable_func(&b.ft, r->func, r->func, NULL, &n->func)) {
			oom(&b);
			goto out;
		}
		kft_caller_name(r->caller, name, sizeof(name));
		n->caller = kft_functable_intern(&b.ft, name);
		if (!n->caller) {
			oom(&b);
			goto out;
		}
		nr = (struct kft_nest_row){ .entry_ns = n->entry_ns, .dur_ns = n->dur_ns,
					    .func = n->func, .tid = n->tid,
					    .coroutine = n->coroutine, .irq = n->irq };
		if (!kft_strmap_get(&b.ft.by_key, name, &nr.caller))
			nr.caller = KFT_NONE;
		if (kft_text_nest_add(&nest, idx, &nr, &parent, &depth)) {
			oom(&b);
			goto out;
		}
		attach(t, idx, parent);
	}
	ret = finish(&b, classic);
out:
	kft_text_nest_free(&nest);
	builder_done(&b);
	if (ret)
		kft_calltree_free(t);
	return ret;
}

int kft_calltree_to_text(const struct kft_calltree *t, struct kft_text_log *log,
			 struct kft_error *err)
{
	memset(log, 0, sizeof(*log));
	log->rows = calloc(t->nnodes ? t->nnodes : 1, sizeof(*log->rows));
	if (!log->rows)
		return kft_error_set(err, "out of memory");
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct kft_node *n = &t->nodes[i];
		struct kft_text_row *r = &log->rows[log->nrows++];

		r->entry_us = n->entry_ns / 1000;
		r->delta_us = n->dur_ns < 0 ? -1 : n->dur_ns / 1000;
		snprintf(r->pid, sizeof(r->pid), "%s", n->pid);
		r->tid = n->tid;
		r->coroutine = n->coroutine;
		r->irq = n->irq;
		r->func = strdup(t->funcs[n->func].base_name);
		r->caller = strdup(n->caller);
		r->line = (unsigned int)(i + 1);
		if (!r->func || !r->caller) {
			kft_text_log_free(log);
			return kft_error_set(err, "out of memory");
		}
	}
	return 0;
}

void kft_calltree_free(struct kft_calltree *t)
{
	for (size_t i = 0; i < t->nfuncs; i++) {
		free(t->funcs[i].name);
		free(t->funcs[i].base_name);
	}
	for (size_t i = 0; i < t->nstrings; i++)
		free(t->strings[i]);
	free(t->funcs);
	free(t->nodes);
	free(t->roots);
	free(t->strings);
	kft_switches_free(&t->switches);
	memset(t, 0, sizeof(*t));
}
