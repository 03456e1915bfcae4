// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../common/heap.h"
#include "entry-order.h"
#include "kernel-join.h"

/* The program calls open in one thread at this point of the stream. */
struct open_user {
	uint32_t tid;
	struct kft_kernel_join join;
};

struct kft_calls {
	struct kft_source *src;
	size_t nsrc;
	size_t *heap;		/* sources with a head, earliest first */
	size_t nheap;
	uint64_t total;
	bool nest_kernel;
	bool depths;		/* else every call is given at depth 0 */
	struct open_user *users;
	size_t nusers, ucap;
};

/* ---- the merge ------------------------------------------------------- */

bool kft_calls_before(const struct kft_call *a, uint64_t a_ns, size_t ia,
		      const struct kft_call *b, uint64_t b_ns, size_t ib)
{
	if (a_ns != b_ns)
		return a_ns < b_ns;
	if (a->tid != b->tid)
		return a->tid < b->tid;
	if (a->session != b->session)
		return a->session < b->session;
	if (a->depth != b->depth)
		return a->depth < b->depth;
	return ia < ib;
}

static bool before(const void *pa, const void *pb, void *ctx)
{
	const struct kft_calls *cs = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct kft_source *x = &cs->src[a], *y = &cs->src[b];

	return kft_calls_before(&x->head, x->head_key, a, &y->head, y->head_key, b);
}

static void sift_down(struct kft_calls *cs, size_t i)
{
	kft_heap_down(cs->heap, cs->nheap, sizeof(*cs->heap), i, before, cs);
}

/* The program calls open in thread tid, for its kernel calls (kernel-join.h). */
static struct open_user *user_stack(struct kft_calls *cs, uint32_t tid)
{
	for (size_t i = 0; i < cs->nusers; i++)
		if (cs->users[i].tid == tid)
			return &cs->users[i];
	if (kft_grow((void **)&cs->users, cs->nusers, &cs->ucap, sizeof(*cs->users), 8))
		return NULL;
	memset(&cs->users[cs->nusers], 0, sizeof(*cs->users));
	cs->users[cs->nusers].tid = tid;
	return &cs->users[cs->nusers++];
}

static int nest_kernel_call(struct kft_calls *cs, struct kft_call *c)
{
	struct open_user *u = user_stack(cs, c->tid);
	uint32_t base;

	if (!u)
		return -1;
	if (!(c->flags & KFT_REC_KERNEL))
		return kft_kernel_join_program(&u->join, c);
	if (kft_kernel_join_parent(&u->join, c, &base)) {
		c->depth += base;
		c->flags |= KFT_CALL_UNDER_PROGRAM;
	}
	if (u->join.session)
		c->session = u->join.session;	/* one call tree per thread */
	return 0;
}

static struct kft_calls *calls_open(const struct kft_trace *tr, const size_t *threads,
				    size_t nthreads, unsigned int keep, struct kft_error *err)
{
	struct kft_calls *cs = calloc(1, sizeof(*cs));
	size_t n = threads ? nthreads : tr->nthreads;

	if (!cs) {
		kft_error_set(err, "out of memory");
		return NULL;
	}
	cs->src = calloc(n ? n : 1, sizeof(*cs->src));
	cs->heap = calloc(n ? n : 1, sizeof(*cs->heap));
	if (!cs->src || !cs->heap) {
		kft_error_set(err, "out of memory");
		goto fail;
	}
	cs->nsrc = n;
	for (size_t i = 0; i < n; i++) {
		struct kft_source *s = &cs->src[i];

		if (kft_source_open(s, &tr->threads[threads ? threads[i] : i], keep, err))
			goto fail;
		cs->total += s->n + s->nwatch;
		kft_source_advance(s);
		if (s->has_head)
			cs->heap[cs->nheap++] = i;
	}
	kft_heap_make(cs->heap, cs->nheap, sizeof(*cs->heap), before, cs);
	cs->nest_kernel = kft_trace_mixes_kernel(tr);
	cs->depths = keep & KFT_SOURCE_DEPTH;
	return cs;
fail:
	kft_calls_close(cs);
	return NULL;
}

struct kft_calls *kft_calls_open(const struct kft_trace *tr, const size_t *threads,
				 size_t nthreads, struct kft_error *err)
{
	return calls_open(tr, threads, nthreads, KFT_SOURCE_DEPTH, err);
}

struct kft_calls *kft_calls_open_trees(const struct kft_trace *tr, const size_t *threads,
				       size_t nthreads, struct kft_error *err)
{
	return calls_open(tr, threads, nthreads, KFT_SOURCE_DEPTH | KFT_SOURCE_INHERITED, err);
}

struct kft_calls *kft_calls_open_flat(const struct kft_trace *tr, struct kft_error *err)
{
	return calls_open(tr, NULL, 0, 0, err);
}

int kft_calls_next(struct kft_calls *cs, struct kft_call *c)
{
	struct kft_source *s;

	if (!cs->nheap)
		return 0;
	s = &cs->src[cs->heap[0]];
	*c = s->head;
	kft_source_advance(s);
	if (!s->has_head)
		cs->heap[0] = cs->heap[--cs->nheap];
	sift_down(cs, 0);
	/* out of memory here only loses the kernel's nesting */
	if (cs->nest_kernel && c->dur_ns != -2)
		nest_kernel_call(cs, c);
	if (!cs->depths)
		c->depth = 0;
	return 1;
}

uint64_t kft_calls_total(const struct kft_calls *cs)
{
	return cs->total;
}

void kft_calls_close(struct kft_calls *cs)
{
	if (!cs)
		return;
	for (size_t i = 0; i < cs->nsrc; i++)
		kft_source_close(&cs->src[i]);
	for (size_t i = 0; i < cs->nusers; i++)
		kft_kernel_join_free(&cs->users[i].join);
	free(cs->users);
	free(cs->src);
	free(cs->heap);
	free(cs);
}

/* ---- threads one after another ---------------------------------------- */

/* "1234", "1234/2" on the thread's coroutine stack 2, "1234i" in a
 * signal handler, into out (24 bytes); returns its length. (snprintf was
 * a tenth of kd -c's time.) */
static size_t put_decimal(char *out, uint32_t v)
{
	char digits[12];
	size_t len = 0;
	int n = 0;

	do
		digits[n++] = (char)('0' + v % 10);
	while (v /= 10);
	while (n)
		out[len++] = digits[--n];
	return len;
}

size_t kft_pid_label(char *out, uint32_t tid, uint32_t coroutine, bool irq)
{
	size_t len = put_decimal(out, tid);

	if (coroutine) {
		out[len++] = '/';
		len += put_decimal(out + len, coroutine);
	}
	if (irq)
		out[len++] = 'i';
	out[len] = '\0';
	return len;
}

struct group_key {
	uint32_t session, tid;
	uint64_t coroutine;		/* a coroutine's stack nests apart */
	size_t file;
};

static int cmp_group_key(const void *a, const void *b)
{
	const struct group_key *x = a, *y = b;

	if (x->session != y->session)
		return x->session < y->session ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->coroutine != y->coroutine)
		return x->coroutine < y->coroutine ? -1 : 1;
	return x->file < y->file ? -1 : x->file > y->file;
}

int kft_calls_thread_groups(const struct kft_trace *tr, size_t **order, size_t **groups,
			    size_t *ngroups, struct kft_error *err)
{
	size_t n = tr->nthreads;
	struct group_key *k = calloc(n ? n : 1, sizeof(*k));

	*order = calloc(n ? n : 1, sizeof(**order));
	*groups = calloc(n + 1, sizeof(**groups));
	*ngroups = 0;
	if (!k || !*order || !*groups) {
		free(k);
		free(*order);
		free(*groups);
		return kft_error_set(err, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		const struct kft_thread_file *th = &tr->threads[i];

		k[i].session = th->hdr.session;
		k[i].tid = th->hdr.tid;
		k[i].coroutine = th->hdr.coroutine;
		k[i].file = i;
		if (!kft_thread_is_kernel(th))
			continue;
		/* a kernel file joins the program's thread of its tid (its
		 * first process image, if it exec'd) */
		for (size_t j = 0, found = 0; j < n; j++) {
			const struct kft_thread_file *u = &tr->threads[j];

			if (u->hdr.tid != th->hdr.tid || kft_thread_is_kernel(u) ||
			    (found && u->hdr.session >= k[i].session))
				continue;
			k[i].session = u->hdr.session;
			found = 1;
		}
	}
	qsort(k, n, sizeof(*k), cmp_group_key);
	for (size_t i = 0; i < n; i++) {
		(*order)[i] = k[i].file;
		if (!i || k[i].session != k[i - 1].session || k[i].tid != k[i - 1].tid ||
		    k[i].coroutine != k[i - 1].coroutine)
			(*groups)[(*ngroups)++] = i;
	}
	(*groups)[*ngroups] = n;
	free(k);
	return 0;
}
