// SPDX-License-Identifier: GPL-2.0-only
/*
 * One program thread's calls alone, in entry order, with kd's Local; in a
 * trace that traced the thread in the kernel too, its kernel file's calls
 * joined in, each under the program call that made it, as the whole
 * trace's stream (calls.c) nests them.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "call-source.h"

struct kft_thread_calls {
	struct kft_source s;	/* the program's file, or the only one */
	struct kft_source k;	/* the kernel file joined, if joined */
	bool joined;
	bool from_k;		/* the head is k's */
	struct kft_call khead;	/* k's head as the program's tree has it */
};

#define PLACE_BITS 32

static void tc_oom(struct kft_error *err)
{
	kft_error_set(err, "out of memory");
}

/* The next call's index in s (a stack-watch row at its head is no call). */
static uint64_t next_pos(const struct kft_source *s)
{
	return s->has_head && s->head.dur_ns != -2 ? s->pos - 1 : s->pos;
}

/* Whether k's head comes before s's in the stream. */
static bool kernel_first(const struct kft_source *s, const struct kft_source *k)
{
	if (!k->has_head)
		return false;
	if (!s->has_head)
		return true;
	return kft_calls_before(&k->head, k->head_key, 1, &s->head, s->head_key, 0);
}

/* Settle which side holds the head. A kernel call met after the program's
 * first call belongs to the program's process image (one tree a thread). */
static void choose(struct kft_thread_calls *tc)
{
	if (!tc->joined || !(tc->from_k = kernel_first(&tc->s, &tc->k)))
		return;
	tc->khead = tc->k.head;
	if (next_pos(&tc->s) > 0)
		tc->khead.session = tc->s.th->hdr.session;
}

static void rewind_to(struct kft_source *s, uint64_t pos, bool watch_rows)
{
	s->pos = pos;
	s->wpos = watch_rows ? 0 : s->nwatch;	/* none when seeking mid-stream */
	kft_source_advance(s);
}

/* ---- joining a kernel file -------------------------------------------- */

/* A call open at this point of the joining pass. */
struct open_at {
	uint32_t depth;		/* in the program's tree */
	bool kernel, irq;
	uint64_t pos;		/* a program call's, in its file's order */
	uint64_t end;
};

struct stack {
	struct open_at *v;
	size_t n, cap;
};

static int push(struct stack *st, struct open_at o)
{
	if (kft_grow((void **)&st->v, st->n, &st->cap, sizeof(*st->v), 64))
		return -1;
	st->v[st->n++] = o;
	return 0;
}

static int cmp_pos_ns(const void *a, const void *b)
{
	const struct kft_pos_ns *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * One pass over both files in stream order: each kernel call goes one
 * deeper than the innermost program call not yet ended when it began (the
 * one that made the system call: its depth is written into k's), and a
 * kernel call whose parent in the tree is a program call adds its time to
 * that call's kernel time (*kt, sorted by position, for its Local).
 */
static int join_pass(struct kft_source *s, struct kft_source *k, struct kft_pos_ns **kt,
		     size_t *nkt)
{
	struct stack user = { 0 }, tree = { 0 };
	size_t cap = 0, n = 0;
	int ret = -1;

	*kt = NULL;
	while (s->has_head || k->has_head) {
		bool kernel = kernel_first(s, k);
		struct kft_source *from = kernel ? k : s;
		struct kft_call c = from->head;
		uint64_t pos = next_pos(from);
		bool irq = c.flags & KFT_REC_SIGNAL;
		uint64_t end = c.dur_ns < 0 ? UINT64_MAX : c.entry_ns + (uint64_t)c.dur_ns;

		kft_source_advance(from);
		if (c.dur_ns == -2)
			continue;	/* a stack-watch row */
		if (kernel) {
			while (user.n && user.v[user.n - 1].end <= c.entry_ns)
				user.n--;
			if (user.n)
				c.depth += user.v[user.n - 1].depth + 1;
			k->depth[pos] = c.depth;
		} else {
			while (user.n && user.v[user.n - 1].depth >= c.depth)
				user.n--;
			if (push(&user, (struct open_at){ c.depth, false, irq, pos, end }))
				goto out;
		}
		/* its parent in the tree, as the tree in memory finds it */
		while (tree.n && tree.v[tree.n - 1].depth >= c.depth)
			tree.n--;
		if (kernel && c.dur_ns > 0 && tree.n && !tree.v[tree.n - 1].kernel &&
		    !(irq && !tree.v[tree.n - 1].irq)) {
			uint64_t parent = tree.v[tree.n - 1].pos;

			if (n && (*kt)[n - 1].pos == parent) {
				(*kt)[n - 1].ns += c.dur_ns;
			} else {
				if (kft_grow((void **)kt, n, &cap, sizeof(**kt), 64))
					goto out;
				(*kt)[n++] = (struct kft_pos_ns){ parent, c.dur_ns };
			}
		}
		if (push(&tree, (struct open_at){ c.depth, kernel, irq, pos, end }))
			goto out;
	}
	/* a call's kernel children may come apart (between its program
	 * children): one entry a call */
	if (n)
		qsort(*kt, n, sizeof(**kt), cmp_pos_ns);
	*nkt = 0;
	for (size_t i = 0; i < n; i++) {
		if (*nkt && (*kt)[*nkt - 1].pos == (*kt)[i].pos)
			(*kt)[*nkt - 1].ns += (*kt)[i].ns;
		else
			(*kt)[(*nkt)++] = (*kt)[i];
	}
	ret = 0;
out:
	free(user.v);
	free(tree.v);
	return ret;
}

static int join_kernel(struct kft_thread_calls *tc, const struct kft_thread_file *prog,
		       const struct kft_thread_file *kern, bool locals, struct kft_error *err)
{
	struct kft_pos_ns *kt = NULL;
	size_t nkt = 0;

	tc->joined = true;
	if (kft_source_open(&tc->s, prog, false, NULL, 0, err) ||
	    kft_source_open(&tc->k, kern, locals, NULL, 0, err))
		return -1;
	kft_source_advance(&tc->s);
	kft_source_advance(&tc->k);
	if (join_pass(&tc->s, &tc->k, &kt, &nkt)) {
		free(kt);
		tc_oom(err);
		return -1;
	}
	if (locals) {
		/* the program's Locals, less their kernel children */
		kft_source_close(&tc->s);
		memset(&tc->s, 0, sizeof(tc->s));
		if (kft_source_open(&tc->s, prog, true, kt, nkt, err)) {
			free(kt);
			return -1;
		}
	}
	free(kt);
	rewind_to(&tc->s, 0, true);
	rewind_to(&tc->k, 0, true);
	choose(tc);
	return 0;
}

/* ---- the stream ------------------------------------------------------- */

struct kft_thread_calls *kft_thread_calls_open(const struct kft_thread_file *th,
					       const struct kft_thread_file *kernel, bool locals,
					       struct kft_error *err)
{
	struct kft_thread_calls *tc = calloc(1, sizeof(*tc));

	if (!tc) {
		tc_oom(err);
		return NULL;
	}
	if (kernel) {
		if (join_kernel(tc, th, kernel, locals, err)) {
			kft_thread_calls_close(tc);
			return NULL;
		}
		return tc;
	}
	if (kft_source_open(&tc->s, th, locals, NULL, 0, err)) {
		kft_thread_calls_close(tc);
		return NULL;
	}
	kft_source_advance(&tc->s);
	return tc;
}

const struct kft_call *kft_thread_calls_peek(const struct kft_thread_calls *tc,
					     int64_t *local_ns)
{
	const struct kft_source *s = tc->from_k ? &tc->k : &tc->s;

	if (!s->has_head)
		return NULL;
	if (local_ns)
		*local_ns = s->head.dur_ns == -2 || !s->local ? -1 : s->head_local;
	return tc->from_k ? &tc->khead : &s->head;
}

void kft_thread_calls_skip(struct kft_thread_calls *tc)
{
	kft_source_advance(tc->from_k ? &tc->k : &tc->s);
	choose(tc);
}

int kft_thread_calls_seek(struct kft_thread_calls *tc, uint64_t rec)
{
	struct kft_source *s = &tc->s, *k = &tc->k;
	uint64_t lo = 0, hi = k->n;
	struct kft_call c, kc;

	for (uint64_t p = 0; p < s->n; p++) {
		if (s->idx[p] != rec)
			continue;
		rewind_to(s, p, false);
		if (tc->joined) {
			/* the kernel's side: its first call after this one */
			c = s->head;
			while (lo < hi) {
				uint64_t mid = lo + (hi - lo) / 2;

				kft_source_call(k, mid, &kc);
				if (kft_calls_before(&kc, kc.entry_ns, 1, &c, c.entry_ns, 0))
					lo = mid + 1;
				else
					hi = mid;
			}
			rewind_to(k, lo, false);
			choose(tc);
		}
		return 0;
	}
	return -1;
}

uint64_t kft_thread_calls_tell(const struct kft_thread_calls *tc)
{
	if (!tc->joined)
		return tc->s.pos - 1;
	return next_pos(&tc->s) << PLACE_BITS | next_pos(&tc->k);
}

uint64_t kft_thread_calls_tell_next(const struct kft_thread_calls *tc)
{
	if (!tc->joined)
		return tc->s.pos;
	return kft_thread_calls_tell(tc) + (tc->from_k ? 1 : (uint64_t)1 << PLACE_BITS);
}

void kft_thread_calls_seek_to(struct kft_thread_calls *tc, uint64_t place)
{
	if (!tc->joined) {
		rewind_to(&tc->s, place, false);
		return;
	}
	rewind_to(&tc->s, place >> PLACE_BITS, false);
	rewind_to(&tc->k, place & (((uint64_t)1 << PLACE_BITS) - 1), false);
	choose(tc);
}

void kft_thread_calls_close(struct kft_thread_calls *tc)
{
	if (!tc)
		return;
	kft_source_close(&tc->s);
	kft_source_close(&tc->k);
	free(tc);
}

bool kft_thread_calls_joins(const struct kft_trace *tr, size_t *kernel_of)
{
	for (size_t i = 0; kernel_of && i < tr->nthreads; i++)
		kernel_of[i] = SIZE_MAX;
	for (size_t i = 0; i < tr->nthreads; i++) {
		const struct kft_thread_file *kern = &tr->threads[i];
		size_t prog = SIZE_MAX, nprog = 0;

		if (!kft_thread_is_kernel(kern))
			continue;
		for (size_t j = 0; j < tr->nthreads; j++) {
			const struct kft_thread_file *th = &tr->threads[j];

			if (j == i || th->hdr.tid != kern->hdr.tid)
				continue;
			if (kft_thread_is_kernel(th))
				return false;	/* two kernel files of one thread */
			prog = j;
			nprog++;
		}
		if (!nprog)
			continue;	/* a thread traced in the kernel only */
		/* one program file: not a thread that exec'd or ran coroutines */
		if (nprog > 1)
			return false;
		if (kernel_of) {
			kernel_of[prog] = i;
			kernel_of[i] = i;
		}
	}
	return true;
}
