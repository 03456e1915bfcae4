// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-function totals straight from a kft trace, with no sorting and no
 * tree: one backward walk over each thread's records (thread-walk.h),
 * which finds each call's logged parent in memory bounded by the depth.
 * A call's finished children give its Local time; a signal handler's
 * calls are never a child's time. Time counts a function's outermost
 * finished call only, so recursion is not counted twice. Where a thread
 * was traced in the kernel too, the kernel calls a program call made are
 * its children (kernel-parents.h): they are found first, and their time
 * taken out of their parent's Local as the walk leaves it.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../format/thread-walk.h"
#include "funcstats-trace.h"
#include "functable.h"
#include "kernel-parents.h"

/* A program call's kernel children's time, found before the walks. */
struct kernel_time {
	uint32_t tid, session;
	uint64_t entry_ns, depth;
	int64_t ns;
};

struct kernel_times {
	struct kernel_time *v;
	size_t n, cap;
};

struct pass {
	struct kft_funcstats_build *b;
	struct kft_functable *ft;
	uint32_t session;
	bool reused;		/* a library's addresses reused: name by time */
	uint64_t *active;	/* finished calls of each function on the walk's stack */
	size_t nactive;
	const struct kft_thread_file *th;
	uint64_t last_func;	/* runs of one function are common: skip the cache then */
	uint32_t last_id;
	bool have_last;		/* any address may be met, UINT64_MAX too */
	const struct kernel_times *kernel;	/* NULL: none in this thread */
	const struct kft_switches *switches;	/* NULL: not recorded */
};

static int met(void *ctx, struct kft_walk_call *c, struct kft_walk_call *parent)
{
	struct pass *p = ctx;

	(void)parent;
	if (c->func != p->last_func || !p->have_last || p->reused) {
		uint64_t image = p->reused ? kft_symbolizer_image(p->ft->sz, p->session, c->entry_ns)
					   : p->session;

		if (kft_functable_addr(p->ft, image, c->func, &p->last_id) ||
		    kft_funcstats_cover(p->b, p->ft->t->nfuncs))
			return -1;
		p->last_func = c->func;
		p->have_last = true;
	}
	c->tag = p->last_id;
	if (c->dur_ns < 0)
		return 0;
	if (c->tag >= p->nactive) {
		size_t n = p->nactive ? p->nactive : 64;
		uint64_t *bigger;

		while (n <= c->tag)
			n *= 2;
		bigger = realloc(p->active, n * sizeof(*bigger));
		if (!bigger)
			return -1;
		memset(bigger + p->nactive, 0, (n - p->nactive) * sizeof(*bigger));
		p->active = bigger;
		p->nactive = n;
	}
	c->mark = !p->active[c->tag]++;		/* the outermost one */
	return 0;
}

static int cmp_kernel_time(const void *a, const void *b)
{
	const struct kernel_time *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->session != y->session)
		return x->session < y->session ? -1 : 1;
	if (x->entry_ns != y->entry_ns)
		return x->entry_ns < y->entry_ns ? -1 : 1;
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

/* The kernel children's time of call c of thread th. */
static int64_t kernel_ns(const struct kernel_times *kt, const struct kft_thread_file *th,
			 const struct kft_walk_call *c)
{
	struct kernel_time key = { th->hdr.tid, th->hdr.session, c->entry_ns, c->depth, 0 };
	const struct kernel_time *k = bsearch(&key, kt->v, kt->n, sizeof(*kt->v), cmp_kernel_time);

	return k ? k->ns : 0;
}

static int left(void *ctx, struct kft_walk_call *c, struct kft_walk_call *parent)
{
	struct pass *p = ctx;
	int64_t dur = c->dur_ns, off = 0;
	bool child = kft_walk_is_child(c, parent);
	struct kft_call_place place = { c->entry_ns, c->pre, p->th->hdr.tid, p->th->hdr.session };

	if (child && kft_funcstats_child(p->b, parent->tag, c->tag, dur, &place))
		return -1;
	if (dur < 0)
		return kft_funcstats_call(p->b, c->tag, dur, 0, 0, false);
	if (p->kernel)
		c->acc += kernel_ns(p->kernel, p->th, c);
	p->active[c->tag]--;
	if (c->mark && p->switches)
		off = (int64_t)kft_switches_off_ns(p->switches, p->th->hdr.tid, c->entry_ns,
						   c->entry_ns + (uint64_t)dur);
	if (kft_funcstats_call(p->b, c->tag, dur, dur > c->acc ? dur - c->acc : 0, off, c->mark))
		return -1;
	if (c->mark)
		kft_funcstats_nested(p->b, c->tag, c->nested);
	if (child)
		parent->acc += dur;
	return 0;
}

static int one_thread(struct kft_funcstats_build *b, struct kft_functable *ft,
		      const struct kft_thread_file *th, const struct kernel_times *kernel,
		      const struct kft_switches *switches, struct kft_error *err)
{
	struct pass p = { .b = b, .ft = ft, .session = th->hdr.session,
			  .th = th, .switches = switches,
			  .reused = kft_symbolizer_epochs(ft->sz, th->hdr.session) > 1,
			  .kernel = kernel && kernel->n && !kft_thread_is_kernel(th) ? kernel
										: NULL };
	struct kft_walk_ops ops = { .met = met, .left = left, .ctx = &p };
	int ret = kft_thread_walk(th, &ops);

	free(p.active);
	if (ret == KFT_WALK_CORRUPT)
		return kft_error_set(err, "%s: corrupt: stack-watch rows the header does not count",
				     th->name);
	return ret ? kft_error_set(err, "out of memory") : 0;
}

struct kernel_pass {
	struct kft_funcstats_build *b;
	struct kft_functable *ft;
	struct kernel_times kt;
};

/* The function of call c, as the walks will tag it. */
static int tag_of(struct kernel_pass *kp, const struct kft_call *c, uint32_t *tag)
{
	struct kft_symbolizer *sz = kp->ft->sz;
	uint64_t image = kft_symbolizer_epochs(sz, c->session) > 1
				 ? kft_symbolizer_image(sz, c->session, c->entry_ns)
				 : c->session;

	if (kft_functable_addr(kp->ft, image, c->func, tag))
		return -1;
	return kft_funcstats_cover(kp->b, kp->ft->t->nfuncs);
}

static int kernel_child(void *ctx, const struct kft_call *parent, const struct kft_call *child)
{
	struct kernel_pass *kp = ctx;
	struct kft_call_place place = { child->entry_ns, 0, child->tid, child->session };
	struct kernel_times *kt = &kp->kt;
	uint32_t ptag, ctag;

	if (tag_of(kp, parent, &ptag) || tag_of(kp, child, &ctag) ||
	    kft_funcstats_child(kp->b, ptag, ctag, child->dur_ns, &place))
		return -1;
	if (child->dur_ns <= 0)
		return 0;
	/* a call's kernel children come one after another */
	if (kt->n && kt->v[kt->n - 1].tid == parent->tid &&
	    kt->v[kt->n - 1].session == parent->session &&
	    kt->v[kt->n - 1].entry_ns == parent->entry_ns && kt->v[kt->n - 1].depth == parent->depth) {
		kt->v[kt->n - 1].ns += child->dur_ns;
		return 0;
	}
	if (kft_grow((void **)&kt->v, kt->n, &kt->cap, sizeof(*kt->v), 64))
		return -1;
	kt->v[kt->n++] = (struct kernel_time){ parent->tid, parent->session, parent->entry_ns,
					       parent->depth, child->dur_ns };
	return 0;
}

/* The kernel children of every program call that has some: a table of
 * their time, sorted for the walks, and each child in its parent's list. */
static int kernel_children(struct kernel_pass *kp, const struct kft_trace *tr,
			   struct kft_error *err)
{
	size_t n = 0;

	if (kft_kernel_parents(tr, kernel_child, kp, err))
		return -1;
	if (kp->kt.n)
		qsort(kp->kt.v, kp->kt.n, sizeof(*kp->kt.v), cmp_kernel_time);
	/* the same call met again (it cannot be, but a table with twins
	 * would give one of them): keep one, with both times */
	for (size_t i = 0; i < kp->kt.n; i++) {
		if (n && !cmp_kernel_time(&kp->kt.v[n - 1], &kp->kt.v[i]))
			kp->kt.v[n - 1].ns += kp->kt.v[i].ns;
		else
			kp->kt.v[n++] = kp->kt.v[i];
	}
	kp->kt.n = n;
	return 0;
}

int kft_funcstats_from_trace(struct kft_funcstats *fs, struct kft_calltree *t,
			     const struct kft_trace *tr, struct kft_symbolizer *sz,
			     bool durations, struct kft_error *err)
{
	struct kft_functable ft;
	struct kft_funcstats_build b;
	struct kernel_pass kp = { .b = &b, .ft = &ft };
	int ret = -1;

	memset(t, 0, sizeof(*t));
	kft_funcstats_build_start(&b, fs, durations);
	kft_functable_init(&ft, t, sz);
	if (kft_trace_mixes_kernel(tr) && kernel_children(&kp, tr, err))
		goto out;
	for (size_t i = 0; i < tr->nthreads; i++)
		if (one_thread(&b, &ft, &tr->threads[i], &kp.kt,
			       tr->switches.present ? &tr->switches : NULL, err))
			goto out;
	if (kft_functable_finish(&ft)) {
		kft_error_set(err, "out of memory");
		goto out;
	}
	if (kft_funcstats_build_finish(&b, err))
		goto out;
	fs->switches = tr->switches.present;
	fs->comp = kft_compensation_of(&tr->ctl);
	ret = 0;
out:
	free(kp.kt.v);
	kft_functable_done(&ft);
	if (ret) {
		kft_funcstats_build_abort(&b);
		kft_calltree_free(t);
	}
	return ret;
}
