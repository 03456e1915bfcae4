// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strmap.h"
#include "calltree.h"

/* kd 1.1 kept an unfinished call open for this long */
#define CLASSIC_OPEN_NS (9999999LL * 1000)

struct builder {
	struct kft_calltree *t;
	struct kft_strmap funcs;	/* identity key -> func */
	struct kft_strmap callers;	/* caller name -> index in strings */
	struct kft_error *err;
	size_t fcap, ncap, scap;
};

static int oom(struct builder *b)
{
	return kft_error_set(b->err, "out of memory");
}

/* The func for an identity key, made with base name `name` if new. */
static int func_for(struct builder *b, const char *key, const char *name, uint32_t *out)
{
	struct kft_calltree *t = b->t;

	if (kft_strmap_get(&b->funcs, key, out))
		return 0;
	if (t->nfuncs == b->fcap) {
		struct kft_func *bigger;

		b->fcap = b->fcap ? 2 * b->fcap : 256;
		bigger = realloc(t->funcs, b->fcap * sizeof(*bigger));
		if (!bigger)
			return oom(b);
		t->funcs = bigger;
	}
	t->funcs[t->nfuncs].base_name = strdup(name);
	t->funcs[t->nfuncs].name = NULL;
	if (!t->funcs[t->nfuncs].base_name)
		return oom(b);
	*out = (uint32_t)t->nfuncs++;
	return kft_strmap_put(&b->funcs, key, *out) ? oom(b) : 0;
}

/* An interned copy of a caller name. */
static const char *caller_for(struct builder *b, const char *name)
{
	struct kft_calltree *t = b->t;
	uint32_t i;

	if (kft_strmap_get(&b->callers, name, &i))
		return t->strings[i];
	if (t->nstrings == b->scap) {
		char **bigger;

		b->scap = b->scap ? 2 * b->scap : 256;
		bigger = realloc(t->strings, b->scap * sizeof(*bigger));
		if (!bigger)
			return NULL;
		t->strings = bigger;
	}
	t->strings[t->nstrings] = strdup(name);
	if (!t->strings[t->nstrings] ||
	    kft_strmap_put(&b->callers, name, (uint32_t)t->nstrings))
		return NULL;
	return t->strings[t->nstrings++];
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
static int finish(struct builder *b, bool classic, const char **sources)
{
	struct kft_calltree *t = b->t;
	struct kft_strmap seen = { 0 };

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
	/* count the users of each base name */
	for (size_t i = 0; i < t->nfuncs; i++) {
		uint32_t k = 0;

		kft_strmap_get(&seen, t->funcs[i].base_name, &k);
		if (kft_strmap_put(&seen, t->funcs[i].base_name, k + 1))
			goto fail;
	}
	for (size_t i = 0; i < t->nfuncs; i++) {
		struct kft_func *f = &t->funcs[i];
		uint32_t k = 1;
		char buf[1024];

		kft_strmap_get(&seen, f->base_name, &k);
		if (k > 1 && sources && sources[i])
			snprintf(buf, sizeof(buf), "%s [%s]", f->base_name, sources[i]);
		else
			snprintf(buf, sizeof(buf), "%s", f->base_name);
		f->name = strdup(buf);
		if (!f->name)
			goto fail;
	}
	kft_strmap_free(&seen);
	return 0;
fail:
	kft_strmap_free(&seen);
	return oom(b);
}

static void builder_done(struct builder *b)
{
	kft_strmap_free(&b->funcs);
	kft_strmap_free(&b->callers);
}

/* ---- kft traces: records carry their depth ---------------------------- */

struct thread_stack {
	uint32_t session, tid;
	uint32_t *open;		/* nodes, outermost first */
	size_t n, cap;
};

static struct thread_stack *stack_of(struct thread_stack **all, size_t *nall, uint32_t session,
				     uint32_t tid)
{
	struct thread_stack *bigger;

	for (size_t i = *nall; i-- > 0;)
		if ((*all)[i].session == session && (*all)[i].tid == tid)
			return &(*all)[i];
	bigger = realloc(*all, (*nall + 1) * sizeof(*bigger));
	if (!bigger)
		return NULL;
	*all = bigger;
	memset(&bigger[*nall], 0, sizeof(*bigger));
	bigger[*nall].session = session;
	bigger[*nall].tid = tid;
	return &bigger[(*nall)++];
}

/* Identity of a function: its file and symbol, so that it is the same in
 * a fork child or after exec, and two static ones of one name differ. */
static int trace_func(struct builder *b, struct kft_symbolizer *sz, uint32_t session,
		      uint64_t addr, uint32_t *out, const char ***sources, size_t *nsources)
{
	struct kft_symbol sym = { 0 };
	char key[4200], name[1100];
	uint32_t before = (uint32_t)b->t->nfuncs;

	if (sz && kft_symbolize(sz, session, addr, &sym) && sym.name) {
		snprintf(key, sizeof(key), "%s@%" PRIx64, sym.module ? sym.module : "", sym.sym_addr);
		snprintf(name, sizeof(name), "%s", sym.name);
	} else if (sym.module) {
		const char *base = strrchr(sym.module, '/');

		snprintf(key, sizeof(key), "%s+%" PRIx64, sym.module, sym.offset);
		snprintf(name, sizeof(name), "%s+0x%" PRIx64, base ? base + 1 : sym.module,
			 sym.offset);
	} else {
		snprintf(key, sizeof(key), "%u:%" PRIx64, session, addr);
		snprintf(name, sizeof(name), "0x%016" PRIx64, addr);
	}
	if (func_for(b, key, name, out))
		return -1;
	if (b->t->nfuncs > before) {
		const char **bigger = realloc(*sources, b->t->nfuncs * sizeof(*bigger));
		const char *src = sym.source;

		if (!bigger)
			return oom(b);
		*sources = bigger;
		if (!src && sym.module) {
			src = strrchr(sym.module, '/');
			src = src ? src + 1 : sym.module;
		}
		bigger[*out] = src;
		*nsources = b->t->nfuncs;
	}
	return 0;
}

int kft_calltree_from_trace(struct kft_calltree *t, const struct kft_trace *tr,
			    struct kft_symbolizer *sz, struct kft_error *err)
{
	struct builder b = { .t = t, .err = err };
	struct thread_stack *stacks = NULL;
	const char **sources = NULL;
	size_t nstacks = 0, nsources = 0;
	struct kft_call *calls;
	size_t ncalls;
	uint64_t base = tr->ctl.first_start_ns == UINT64_MAX ? 0 : tr->ctl.first_start_ns;
	int ret = -1;

	memset(t, 0, sizeof(*t));
	if (kft_trace_calls(tr, &calls, &ncalls, err))
		return -1;
	for (size_t i = 0; i < ncalls; i++) {
		const struct kft_call *c = &calls[i];
		struct thread_stack *st;
		struct kft_node *n;
		uint32_t idx, parent = KFT_NONE;
		char name[1100];
		struct kft_symbol sym = { 0 };

		if (c->dur_ns == -2)
			continue;	/* stack-watch rows are no calls */
		n = new_node(&b);
		st = stack_of(&stacks, &nstacks, c->session, c->tid);
		if (!n || !st) {
			oom(&b);
			goto out;
		}
		idx = (uint32_t)(n - t->nodes);
		n->entry_ns = (int64_t)(c->entry_ns - (c->entry_ns >= base ? base : c->entry_ns));
		n->dur_ns = c->dur_ns;
		n->tid = c->tid;
		n->irq = c->flags & KFT_REC_SIGNAL;
		n->depth = c->depth;	/* for now: the recorded depth */
		snprintf(n->pid, sizeof(n->pid), "%u%s", c->tid, n->irq ? "i" : "");
		if (trace_func(&b, sz, c->session, c->func, &n->func, &sources, &nsources))
			goto out;
		if (sz && kft_symbolize(sz, c->session, c->call_site, &sym) && sym.name)
			snprintf(name, sizeof(name), "%s", sym.name);
		else
			snprintf(name, sizeof(name), "0x%" PRIx64, c->call_site);
		n = &t->nodes[idx];
		n->caller = caller_for(&b, name);
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
	ret = finish(&b, false, sources);
out:
	for (size_t i = 0; i < nstacks; i++)
		free(stacks[i].open);
	free(stacks);
	free(sources);
	free(calls);
	builder_done(&b);
	if (ret)
		kft_calltree_free(t);
	return ret;
}

/* ---- text logs: nesting from times and caller names ------------------- */

/* "name+0x1c" -> "name" */
static void caller_name(const char *called_at, char *out, size_t size)
{
	size_t n = strcspn(called_at, "+");

	snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1), called_at);
}

int kft_calltree_from_text(struct kft_calltree *t, const struct kft_text_log *log, bool classic,
			   struct kft_error *err)
{
	struct builder b = { .t = t, .err = err };
	uint32_t *active = NULL;
	int64_t *ends = NULL;
	size_t nactive = 0;
	int ret = -1;

	memset(t, 0, sizeof(*t));
	active = malloc((log->nrows ? log->nrows : 1) * sizeof(*active));
	ends = malloc((log->nrows ? log->nrows : 1) * sizeof(*ends));
	if (!active || !ends) {
		oom(&b);
		goto out;
	}
	for (size_t i = 0; i < log->nrows; i++) {
		const struct kft_text_row *r = &log->rows[i];
		struct kft_node *n;
		uint32_t idx, parent = KFT_NONE;
		int64_t end;
		char name[1024];
		size_t keep = 0;

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
		n->irq = r->irq;
		n->args = r->args;
		snprintf(n->pid, sizeof(n->pid), "%s", r->pid);
		if (func_for(&b, r->func, r->func, &n->func))
			goto out;
		caller_name(r->caller, name, sizeof(name));
		n = &t->nodes[idx];
		n->caller = caller_for(&b, name);
		if (!n->caller) {
			oom(&b);
			goto out;
		}
		if (n->dur_ns >= 0)
			/* the log rounds entry and delta down: allow 1 usec */
			end = n->entry_ns + n->dur_ns + (classic ? 0 : 1000);
		else
			end = classic ? n->entry_ns + CLASSIC_OPEN_NS : INT64_MAX;
		/* the calls still open at this entry */
		for (size_t j = 0; j < nactive; j++) {
			const struct kft_node *a = &t->nodes[active[j]];

			if (a->entry_ns <= n->entry_ns && n->entry_ns <= ends[j]) {
				active[keep] = active[j];
				ends[keep++] = ends[j];
			}
		}
		nactive = keep;
		/* the newest open call of the caller's name: kd took any thread's;
		 * we take the same thread's, or any for an interrupt */
		for (size_t j = nactive; j-- > 0;) {
			const struct kft_node *a = &t->nodes[active[j]];

			if (strcmp(t->funcs[a->func].base_name, n->caller))
				continue;
			if (classic || n->irq || (a->tid == n->tid && !a->irq)) {
				parent = active[j];
				break;
			}
		}
		attach(t, idx, parent);
		active[nactive] = idx;
		ends[nactive++] = end;
	}
	ret = finish(&b, classic, NULL);
out:
	free(active);
	free(ends);
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
	memset(t, 0, sizeof(*t));
}
