// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../format/calls.h"
#include "calltree.h"
#include "depth-nest.h"
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

int kft_calltree_from_trace(struct kft_calltree *t, const struct kft_trace *tr,
			    struct kft_symbolizer *sz, bool inherited, struct kft_error *err)
{
	struct builder b = { .t = t, .err = err };
	struct kft_depth_nest nest = { 0 };
	struct kft_calls *cs;
	struct kft_call call;
	uint64_t base = kft_trace_base_ns(tr);
	int ret = -1;

	memset(t, 0, sizeof(*t));
	t->base_ns = base;
	kft_functable_init(&b.ft, t, sz);
	cs = inherited ? kft_calls_open_trees(tr, NULL, 0, err) : kft_calls_open(tr, NULL, 0, err);
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
		struct kft_node *n;
		uint32_t idx, parent;
		uint64_t image;

		if (c->dur_ns == -2)
			continue;	/* stack-watch rows are no calls */
		n = new_node(&b);
		if (!n) {
			oom(&b);
			goto out;
		}
		idx = (uint32_t)(n - t->nodes);
		n->entry_ns = (int64_t)(c->entry_ns - (c->entry_ns >= base ? base : c->entry_ns));
		n->dur_ns = c->dur_ns;
		n->tid = c->tid;
		n->coroutine = c->coroutine;
		n->irq = c->flags & KFT_REC_SIGNAL;
		n->inherited = c->flags & KFT_CALL_INHERITED;
		kft_pid_label(n->pid, c->tid, c->coroutine, n->irq);
		image = kft_symbolizer_image(sz, c->map_session, c->entry_ns);
		if (kft_functable_addr(&b.ft, image, c->func, &n->func)) {
			oom(&b);
			goto out;
		}
		n->caller = kft_functable_caller(&b.ft, image, c->call_site);
		if (!n->caller || kft_depth_nest_add(&nest, idx, c, &parent, &n->depth)) {
			oom(&b);
			goto out;
		}
		attach(t, idx, parent);
	}
	ret = finish(&b, false);
out:
	kft_depth_nest_free(&nest);
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

		if (r->delta_ns == -2)
			continue;
		n = new_node(&b);
		if (!n) {
			oom(&b);
			goto out;
		}
		idx = (uint32_t)(n - t->nodes);
		n->entry_ns = r->entry_ns;
		n->dur_ns = r->delta_ns < 0 ? -1 : r->delta_ns;
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
					    .unit_ns = r->unit_ns, .func = n->func, .tid = n->tid,
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

		r->entry_ns = n->entry_ns;
		r->delta_ns = n->dur_ns < 0 ? -1 : n->dur_ns;
		r->unit_ns = 1;
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
