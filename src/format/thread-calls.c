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

/* A program call open at this point of the joining pass. */
struct user_open {
	uint32_t depth;
	uint64_t end;
};

/* A call open in the tree the joining pass builds. */
struct tree_open {
	uint32_t depth;		/* in the tree */
	bool irq;
	struct kft_source *from;
	uint64_t pos;
	int64_t dur, acc;	/* acc: its children's time */
};

/* A call leaves the tree: its Local is known. 0, or -1 when it could
 * not be written. */
static int settle(const struct tree_open *o)
{
	if (!o->from->local)
		return 0;
	return kft_source_set_local(o->from, o->pos,
				    o->dur < 0 ? -1 : o->dur > o->acc ? o->dur - o->acc : 0);
}

/*
 * One pass over both files in the whole trace's order, nesting as the
 * trace's call stream does (kft_calls): a kernel call goes one
 * deeper than the innermost program call not yet ended when it began (the
 * one that made the system call); each call's parent is the innermost
 * call open in the tree not as deep. Each call's depth in the tree and its
 * Local (its time less its children's) are written into its source.
 */
static int join_pass(struct kft_source *s, struct kft_source *k)
{
	struct user_open *user = NULL;
	struct tree_open *tree = NULL;
	size_t nuser = 0, ucap = 0, ntree = 0, tcap = 0;
	int ret = -1;

	while (s->has_head || k->has_head) {
		bool kernel = kernel_first(s, k);
		struct kft_source *from = kernel ? k : s;
		struct kft_call c = from->head;
		uint64_t pos = next_pos(from);
		bool irq = c.flags & KFT_REC_SIGNAL;
		struct tree_open *parent;

		kft_source_advance(from);
		if (c.dur_ns == -2)
			continue;	/* a stack-watch row */
		if (kernel) {
			while (nuser && user[nuser - 1].end <= c.entry_ns)
				nuser--;
			if (nuser)
				c.depth += user[nuser - 1].depth + 1;
		} else {
			while (nuser && user[nuser - 1].depth >= c.depth)
				nuser--;
			if (kft_grow((void **)&user, nuser, &ucap, sizeof(*user), 64))
				goto out;
			user[nuser++] = (struct user_open){
				c.depth, c.dur_ns < 0 ? UINT64_MAX : c.entry_ns + (uint64_t)c.dur_ns };
		}
		while (ntree && tree[ntree - 1].depth >= c.depth)
			if (settle(&tree[--ntree]))
				goto out;
		/* a signal handler's chain is a root of its own */
		parent = ntree && !(irq && !tree[ntree - 1].irq) ? &tree[ntree - 1] : NULL;
		if (parent && c.dur_ns > 0)
			parent->acc += c.dur_ns;
		if (kft_grow((void **)&tree, ntree, &tcap, sizeof(*tree), 64))
			goto out;
		tree[ntree++] = (struct tree_open){ parent ? parent->depth + 1 : c.depth, irq, from,
						    pos, c.dur_ns, 0 };
		from->depth[pos] = tree[ntree - 1].depth;
	}
	while (ntree)
		if (settle(&tree[--ntree]))
			goto out;
	ret = 0;
out:
	free(user);
	free(tree);
	return ret;
}

static int join_kernel(struct kft_thread_calls *tc, const struct kft_thread_file *prog,
		       const struct kft_thread_file *kern, bool locals, unsigned int inherited,
		       struct kft_error *err)
{
	tc->joined = true;
	if (kft_source_open(&tc->s, prog, KFT_SOURCE_DEPTH | inherited, err) ||
	    kft_source_open(&tc->k, kern, KFT_SOURCE_DEPTH, err))
		return -1;
	/* Locals as the joining pass finds them, not each file's alone */
	if (locals && (kft_source_want_locals(&tc->s, err) || kft_source_want_locals(&tc->k, err)))
		return -1;
	kft_source_advance(&tc->s);
	kft_source_advance(&tc->k);
	if (join_pass(&tc->s, &tc->k)) {
		if (!locals || (!kft_spill32_check(tc->s.local, err) &&
				!kft_spill32_check(tc->k.local, err)))
			tc_oom(err);
		return -1;
	}
	tc->s.local_ready = tc->k.local_ready = locals;
	rewind_to(&tc->s, 0, true);
	rewind_to(&tc->k, 0, true);
	choose(tc);
	return 0;
}

/* ---- the stream ------------------------------------------------------- */

struct kft_thread_calls *kft_thread_calls_open(const struct kft_thread_file *th,
					       const struct kft_thread_file *kernel, bool locals,
					       bool inherited, struct kft_error *err)
{
	struct kft_thread_calls *tc = calloc(1, sizeof(*tc));
	unsigned int keep = inherited ? KFT_SOURCE_INHERITED : 0;

	if (!tc) {
		tc_oom(err);
		return NULL;
	}
	if (kernel) {
		if (join_kernel(tc, th, kernel, locals, keep, err)) {
			kft_thread_calls_close(tc);
			return NULL;
		}
		return tc;
	}
	if (kft_source_open(&tc->s, th, KFT_SOURCE_DEPTH | keep | (locals ? KFT_SOURCE_LOCAL : 0),
			    err)) {
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
		*local_ns = s->head.dur_ns == -2 || !s->local_ready ? -1 : s->head_local;
	return tc->from_k ? &tc->khead : &s->head;
}

void kft_thread_calls_skip(struct kft_thread_calls *tc)
{
	kft_source_advance(tc->from_k ? &tc->k : &tc->s);
	choose(tc);
}

int kft_thread_calls_check(const struct kft_thread_calls *tc, struct kft_error *err)
{
	if ((tc->s.local && kft_spill32_check(tc->s.local, err)) ||
	    (tc->k.local && kft_spill32_check(tc->k.local, err)))
		return -1;
	return 0;
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
