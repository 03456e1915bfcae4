// SPDX-License-Identifier: GPL-2.0-only
/*
 * One thread file's calls, in entry order, with kd's Local; in a trace
 * that traced a thread in the kernel too, the calls of its kernel file
 * joined in, each to the stream of the program file whose tree it runs
 * in (under the program call that made it), as the whole trace's stream
 * (trace-stream.c) and its trees nest them.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "entry-order.h"
#include "kernel-join.h"

struct kft_thread_calls {
	struct kft_source s;	/* the file's own calls */
	struct kft_source k;	/* the kernel calls joined in, if joined */
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

/* Settle which side holds the head: a kernel call joined to a program
 * file runs in that file's process image (one tree a thread). */
static void choose(struct kft_thread_calls *tc)
{
	if (!tc->joined || !(tc->from_k = kernel_first(&tc->s, &tc->k)))
		return;
	tc->khead = tc->k.head;
	tc->khead.session = tc->s.th->hdr.session;
}

static void rewind_to(struct kft_source *s, uint64_t pos, bool watch_rows)
{
	s->pos = pos;
	s->wpos = watch_rows ? 0 : s->nwatch;	/* none when seeking mid-stream */
	kft_source_advance(s);
}

/* ---- joining a kernel file -------------------------------------------- */

/*
 * A thread traced in the program and the kernel: its files (one or more
 * program files: it exec'd, or ran coroutines; and the kernel file) are
 * read together once, in the whole trace's order, to learn where each
 * kernel call goes and each call's depth and Local in its tree.
 */
struct group {
	const struct kft_trace *tr;
	size_t *files;		/* program files, then the kernel file */
	size_t n;
	struct kft_source *src;	/* [n] */
	struct kft_spill32 owner;	/* the kernel file's calls: the stream
					 * (index into files), once has_owner */
	bool has_owner;
};

/* A call open in a tree the joining pass builds. */
struct tree_open {
	uint32_t depth;		/* in the tree */
	bool irq;
	struct kft_source *from;
	uint64_t pos;
	int64_t dur, acc;	/* acc: its children's time */
};

/* The calls open in one stream's trees. */
struct tree_stack {
	struct tree_open *open;
	size_t n, cap;
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

/* The source whose head comes first in the whole trace's order, or n. */
static size_t earliest(const struct group *g)
{
	size_t best = g->n;

	for (size_t i = 0; i < g->n; i++) {
		const struct kft_source *a = &g->src[i], *b = &g->src[best];

		if (a->has_head && (best == g->n || kft_calls_before(&a->head, a->head_key,
								     g->files[i], &b->head,
								     b->head_key, g->files[best])))
			best = i;
	}
	return best;
}

/* The stream of a kernel call run while the program's call in file
 * last (of session) was the latest: that session's main stack's, as the
 * trace's trees key their stacks, else last's. */
static size_t stream_of(const struct group *g, uint32_t session, uint32_t coroutine, size_t last)
{
	for (size_t i = 0; i + 1 < g->n; i++) {
		const struct kft_thread_file *th = &g->tr->threads[g->files[i]];

		if (th->hdr.session == session && th->hdr.coroutine == coroutine)
			return i;
	}
	return last;
}

/* Call c of source from (at place pos) goes into the trees of stream st:
 * one deeper than the innermost open call not as deep, unless it starts
 * a signal handler's chain (a root of its own). */
static int nest(struct tree_stack *st, struct kft_source *from, uint64_t pos,
		const struct kft_call *c)
{
	bool irq = c->flags & KFT_REC_SIGNAL;
	struct tree_open *parent;

	while (st->n && st->open[st->n - 1].depth >= c->depth)
		if (settle(&st->open[--st->n]))
			return -1;
	parent = st->n && !(irq && !st->open[st->n - 1].irq) ? &st->open[st->n - 1] : NULL;
	if (parent && c->dur_ns > 0)
		parent->acc += c->dur_ns;
	if (kft_grow((void **)&st->open, st->n, &st->cap, sizeof(*st->open), 64))
		return -1;
	st->open[st->n++] = (struct tree_open){ parent ? parent->depth + 1 : c->depth, irq, from,
						pos, c->dur_ns, 0 };
	return kft_spill32_set(from->depth, pos, st->open[st->n - 1].depth);
}

/*
 * One pass over the group's files in the whole trace's order, nesting as
 * the trace's call stream does (kernel-join.h): a kernel call goes one
 * deeper than the program call that made the system call, into the trees
 * of that call's process image; a kernel call before any program call
 * stays the kernel file's.
 * Each call's depth in its tree and its Local (its time less its
 * children's) are written into its source, each kernel call's stream
 * into owner.
 */
static int join_pass(struct group *g)
{
	size_t kern = g->n - 1, last = kern;
	struct kft_kernel_join user = { 0 };
	struct tree_stack *trees = calloc(g->n, sizeof(*trees));
	size_t i;
	int ret = -1;

	if (!trees)
		return -1;
	while ((i = earliest(g)) < g->n) {
		struct kft_source *from = &g->src[i];
		struct kft_call c = from->head;
		uint64_t pos = next_pos(from);
		size_t to = i;
		uint32_t base;

		kft_source_advance(from);
		if (c.dur_ns == -2)
			continue;	/* a stack-watch row */
		if (i == kern) {
			if (kft_kernel_join_parent(&user, &c, &base))
				c.depth += base;
			to = user.session ? stream_of(g, user.session, c.coroutine, last) : kern;
			if (kft_spill32_set(&g->owner, pos, (uint32_t)to))
				goto out;
		} else {
			if (kft_kernel_join_program(&user, &c))
				goto out;
			last = i;
		}
		if (nest(&trees[to], from, pos, &c))
			goto out;
	}
	ret = 0;
out:
	for (size_t t = 0; t < g->n; t++) {
		while (!ret && trees[t].n)
			if (settle(&trees[t].open[--trees[t].n]))
				ret = -1;
		free(trees[t].open);
	}
	free(trees);
	kft_kernel_join_free(&user);
	return ret;
}

/* The kernel file of file i's thread when a program file of it was
 * traced too (the first, if it has more), else SIZE_MAX. */
static size_t kernel_file_of(const struct kft_trace *tr, size_t i)
{
	size_t kern = SIZE_MAX;
	bool prog = false;

	for (size_t j = 0; j < tr->nthreads; j++) {
		const struct kft_thread_file *th = &tr->threads[j];

		if (th->hdr.tid != tr->threads[i].hdr.tid)
			continue;
		if (!kft_thread_is_kernel(th))
			prog = true;
		else if (kern == SIZE_MAX)
			kern = j;
	}
	return prog ? kern : SIZE_MAX;
}

/* The group of kernel file kern: its thread's program files, then it. */
static int group_files(struct group *g, const struct kft_trace *tr, size_t kern)
{
	g->tr = tr;
	if (!(g->files = calloc(tr->nthreads, sizeof(*g->files))))
		return -1;
	for (size_t j = 0; j < tr->nthreads; j++)
		if (tr->threads[j].hdr.tid == tr->threads[kern].hdr.tid &&
		    !kft_thread_is_kernel(&tr->threads[j]))
			g->files[g->n++] = j;
	g->files[g->n++] = kern;
	g->src = calloc(g->n, sizeof(*g->src));
	return g->src ? 0 : -1;
}

static void group_free(struct group *g)
{
	for (size_t i = 0; g->src && i < g->n; i++)
		kft_source_close(&g->src[i]);
	free(g->src);
	free(g->files);
	if (g->has_owner)
		kft_spill32_free(&g->owner);
}

/* The group's streams, from its pass: each program file's own calls with
 * the kernel calls it owns, the kernel file's with the rest. */
static int group_streams(struct group *g, struct kft_thread_calls **streams,
			 struct kft_error *err)
{
	size_t kern = g->n - 1;

	for (size_t i = 0; i < g->n; i++) {
		struct kft_thread_calls *tc = calloc(1, sizeof(*tc));

		if (!tc) {
			tc_oom(err);
			return -1;
		}
		streams[g->files[i]] = tc;
		if (i == kern) {
			if (kft_source_subset(&tc->s, &g->src[kern], &g->owner, (uint32_t)kern, err))
				return -1;
			rewind_to(&tc->s, 0, true);
			continue;
		}
		tc->joined = true;
		if (kft_source_subset(&tc->k, &g->src[kern], &g->owner, (uint32_t)i, err))
			return -1;
		tc->s = g->src[i];	/* moved */
		memset(&g->src[i], 0, sizeof(g->src[i]));
		rewind_to(&tc->s, 0, true);
		rewind_to(&tc->k, 0, true);
		choose(tc);
	}
	return 0;
}

/* The streams of kernel file kern's group (see group). */
static int join_group(const struct kft_trace *tr, size_t kern, bool locals, unsigned int inherited,
		      struct kft_thread_calls **streams, struct kft_error *err)
{
	struct group g = { 0 };
	int ret = -1;

	if (group_files(&g, tr, kern)) {
		tc_oom(err);
		goto out;
	}
	for (size_t i = 0; i < g.n; i++) {
		unsigned int keep = KFT_SOURCE_DEPTH | (i + 1 < g.n ? inherited : 0);

		/* Locals as the joining pass finds them, not each file's alone */
		if (kft_source_open(&g.src[i], &tr->threads[g.files[i]], keep, err) ||
		    (locals && kft_source_want_locals(&g.src[i], err)))
			goto out;
		kft_source_advance(&g.src[i]);
	}
	if (kft_spill32_init(&g.owner, g.src[g.n - 1].n, err))
		goto out;
	g.has_owner = true;
	if (join_pass(&g)) {
		bool spilled = kft_spill32_check(&g.owner, err);

		for (size_t i = 0; i < g.n && !spilled; i++)
			spilled = kft_source_check(&g.src[i], err);
		if (!spilled)
			tc_oom(err);
		goto out;
	}
	for (size_t i = 0; i < g.n; i++)
		g.src[i].local_ready = locals;
	ret = group_streams(&g, streams, err);
out:
	for (size_t i = 0; ret && i < g.n && g.files; i++) {
		kft_thread_calls_close(streams[g.files[i]]);
		streams[g.files[i]] = NULL;
	}
	group_free(&g);
	return ret;
}

/* ---- the stream ------------------------------------------------------- */

struct kft_thread_calls *kft_thread_calls_open(const struct kft_thread_file *th, bool locals,
					       bool inherited, struct kft_error *err)
{
	struct kft_thread_calls *tc = calloc(1, sizeof(*tc));
	unsigned int keep = KFT_SOURCE_DEPTH | (inherited ? KFT_SOURCE_INHERITED : 0) |
			    (locals ? KFT_SOURCE_LOCAL : 0);

	if (!tc) {
		tc_oom(err);
		return NULL;
	}
	if (kft_source_open(&tc->s, th, keep, err)) {
		kft_thread_calls_close(tc);
		return NULL;
	}
	kft_source_advance(&tc->s);
	return tc;
}

int kft_thread_calls_open_group(const struct kft_trace *tr, size_t i, bool locals, bool inherited,
				struct kft_thread_calls **streams, struct kft_error *err)
{
	size_t kern = kernel_file_of(tr, i);

	if (kern != SIZE_MAX && (i == kern || !kft_thread_is_kernel(&tr->threads[i])))
		return join_group(tr, kern, locals, inherited ? KFT_SOURCE_INHERITED : 0, streams,
				  err);
	streams[i] = kft_thread_calls_open(&tr->threads[i], locals, inherited, err);
	return streams[i] ? 0 : -1;
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
	if (kft_source_check(&tc->s, err) || kft_source_check(&tc->k, err))
		return -1;
	return 0;
}

int kft_thread_calls_seek(struct kft_thread_calls *tc, uint64_t rec)
{
	struct kft_source *s = &tc->s, *k = &tc->k;
	uint64_t lo = 0, hi = k->n;
	struct kft_call c, kc;

	for (uint64_t p = 0; p < s->n; p++) {
		if (kft_spill32_get(s->idx, p) != rec)
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
