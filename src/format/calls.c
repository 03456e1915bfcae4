// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "../common/heap.h"
#include "calls.h"
#include "thread-walk.h"

/* A stack-watch row: shown at the moment its chain was taken. */
struct watch_row {
	uint64_t rec;
	uint64_t order_ns;	/* entry of the chain's deepest frame */
};

/* One thread file's calls in entry order. */
struct source {
	const struct kft_thread_file *th;
	uint32_t *idx;		/* record, or nrecs + open frame */
	uint32_t *depth;	/* logged ancestors */
	uint32_t *local;	/* kd's Local in usec (KFT_LOCAL_*), if asked for */
	uint64_t n, pos;
	struct watch_row *watch;
	uint64_t nwatch, wpos;
	struct kft_call head;	/* the next call, if has_head */
	int64_t head_local;	/* its Local in ns (-1: unfinished), if local */
	uint64_t head_key;	/* its time in the merge */
	bool has_head;
};

/* The program calls open in one thread at this point of the stream. */
struct open_user {
	uint32_t tid;
	uint32_t session;	/* of the latest program call; 0: none yet */
	size_t top, cap;
	struct {
		uint32_t depth;
		uint64_t end;
	} *stack;
};

struct kft_calls {
	struct source *src;
	size_t nsrc;
	size_t *heap;		/* sources with a head, earliest first */
	size_t nheap;
	uint64_t total;
	bool nest_kernel;
	struct open_user *users;
	size_t nusers;
};

static void fill_call(struct kft_call *c, const struct kft_thread_file *th, uint64_t i,
		      uint32_t depth)
{
	if (i < th->nrecs) {
		struct kft_rec_data r;

		kft_thread_rec(th, i, &r);
		c->entry_ns = r.entry_ns;
		c->dur_ns = kft_dur_decode(r.dur);
		c->func = r.func;
		c->call_site = r.call_site;
		c->flags = r.flags;
	} else {
		const struct kft_frame *fr = &th->frames[i - th->nrecs];

		c->entry_ns = fr->entry_ns;
		c->dur_ns = -1;
		c->func = fr->func;
		c->call_site = fr->call_site;
		c->flags = kft_frame_rec_flags(fr);
	}
	c->depth = depth;
	c->tid = th->hdr.tid;
	c->pid = th->hdr.pid;
	c->session = th->hdr.session;
	c->coroutine = (uint32_t)th->hdr.coroutine;
}

/* ---- one thread ------------------------------------------------------ */

/*
 * Local: the duration less the finished children's, at least 0. Kept in
 * usec, which is what kd prints, in 32 bits: 71 minutes.
 */
#define LOCAL_UNFINISHED UINT32_MAX
#define LOCAL_MAX_US (UINT32_MAX - 1)

static void note_local(struct source *s, struct kft_walk_call *c, struct kft_walk_call *parent)
{
	int64_t local = c->dur_ns - c->acc;

	if (c->dur_ns < 0)
		s->local[c->pre] = LOCAL_UNFINISHED;
	else if (local <= 0)
		s->local[c->pre] = 0;
	else
		s->local[c->pre] = local / 1000 > LOCAL_MAX_US ? LOCAL_MAX_US : (uint32_t)(local / 1000);
	if (c->dur_ns > 0 && kft_walk_is_child(c, parent))
		parent->acc += c->dur_ns;
}

static int place(void *ctx, struct kft_walk_call *c, struct kft_walk_call *parent)
{
	struct source *s = ctx;

	if (c->pre >= s->n)
		return KFT_WALK_CORRUPT;
	s->idx[c->pre] = (uint32_t)c->idx;
	s->depth[c->pre] = (uint32_t)c->depth;
	if (s->local)
		note_local(s, c, parent);
	return 0;
}

/* The stack-watch rows, each chain (outermost frame first) at its time. */
static int find_watch_rows(struct source *s)
{
	const struct kft_thread_file *th = s->th;
	uint64_t chain = UINT64_MAX, cap = 0;

	for (uint64_t i = 0; i < th->nrecs; i++) {
		struct kft_rec_data r;
		bool watch;

		kft_thread_rec(th, i, &r);
		watch = r.dur == KFT_DUR_WATCH;
		if (chain != UINT64_MAX && (!watch || r.depth == 0)) {
			for (uint64_t k = chain; k < s->nwatch; k++)
				s->watch[k].order_ns = s->watch[s->nwatch - 1].order_ns;
			chain = UINT64_MAX;
		}
		if (!watch)
			continue;
		if (s->nwatch == cap) {
			struct watch_row *bigger;

			cap = cap ? 2 * cap : 64;
			bigger = realloc(s->watch, cap * sizeof(*bigger));
			if (!bigger)
				return -1;
			s->watch = bigger;
		}
		if (chain == UINT64_MAX)
			chain = s->nwatch;
		s->watch[s->nwatch].rec = i;
		s->watch[s->nwatch++].order_ns = r.entry_ns;
	}
	if (chain != UINT64_MAX)
		for (uint64_t k = chain; k < s->nwatch; k++)
			s->watch[k].order_ns = s->watch[s->nwatch - 1].order_ns;
	return 0;
}

static int source_open(struct source *s, const struct kft_thread_file *th, bool locals,
		       struct kft_error *err)
{
	struct kft_walk_ops ops = { .left = place, .ctx = s };
	int ret;

	s->th = th;
	s->n = kft_walk_count(th);
	if (s->n >= UINT32_MAX)
		return kft_error_set(err, "%s: %llu calls in one thread: more than this kft reads",
				     th->name, (unsigned long long)s->n);
	s->idx = malloc((s->n ? s->n : 1) * sizeof(*s->idx));
	s->depth = malloc((s->n ? s->n : 1) * sizeof(*s->depth));
	if (locals)
		s->local = malloc((s->n ? s->n : 1) * sizeof(*s->local));
	if (!s->idx || !s->depth || (locals && !s->local))
		return kft_error_set(err, "out of memory for %llu calls",
				     (unsigned long long)s->n);
	ret = kft_thread_walk(th, &ops);
	if (ret == KFT_WALK_CORRUPT)
		return kft_error_set(err, "%s: corrupt: stack-watch rows the header does not count",
				     th->name);
	if (ret || (th->hdr.counters.watch_hits && find_watch_rows(s)))
		return kft_error_set(err, "out of memory");
	return 0;
}

/* Take the thread's next call (or watch row) as its head. */
static void source_advance(struct source *s)
{
	bool call = s->pos < s->n, watch = s->wpos < s->nwatch;

	if (call)
		fill_call(&s->head, s->th, s->idx[s->pos], s->depth[s->pos]);
	if (watch) {
		const struct watch_row *w = &s->watch[s->wpos];
		struct kft_rec_data r;

		kft_thread_rec(s->th, w->rec, &r);
		if (!call || w->order_ns < s->head.entry_ns ||
		    (w->order_ns == s->head.entry_ns && r.depth <= s->head.depth)) {
			fill_call(&s->head, s->th, w->rec, r.depth);
			s->head_key = w->order_ns;
			s->wpos++;
			s->has_head = true;
			return;
		}
	}
	s->has_head = call;
	if (call) {
		s->head_key = s->head.entry_ns;
		if (s->local)
			s->head_local = s->local[s->pos] == LOCAL_UNFINISHED ?
						-1 : (int64_t)s->local[s->pos] * 1000;
		s->pos++;
	}
}

static void source_close(struct source *s)
{
	free(s->idx);
	free(s->depth);
	free(s->local);
	free(s->watch);
}

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
	const struct source *x = &cs->src[a], *y = &cs->src[b];

	return kft_calls_before(&x->head, x->head_key, a, &y->head, y->head_key, b);
}

static void sift_down(struct kft_calls *cs, size_t i)
{
	kft_heap_down(cs->heap, cs->nheap, sizeof(*cs->heap), i, before, cs);
}

/*
 * A thread traced in both the program and the kernel: each kernel call
 * goes under the innermost program call open when it began (the one that
 * made the system call). Both sides use CLOCK_MONOTONIC, so the times
 * decide.
 */
static struct open_user *user_stack(struct kft_calls *cs, uint32_t tid)
{
	struct open_user *bigger;

	for (size_t i = 0; i < cs->nusers; i++)
		if (cs->users[i].tid == tid)
			return &cs->users[i];
	bigger = realloc(cs->users, (cs->nusers + 1) * sizeof(*bigger));
	if (!bigger)
		return NULL;
	cs->users = bigger;
	memset(&bigger[cs->nusers], 0, sizeof(*bigger));
	bigger[cs->nusers].tid = tid;
	return &bigger[cs->nusers++];
}

static int nest_kernel_call(struct kft_calls *cs, struct kft_call *c)
{
	struct open_user *u = user_stack(cs, c->tid);

	if (!u)
		return -1;
	if (c->flags & KFT_REC_KERNEL) {
		while (u->top && u->stack[u->top - 1].end <= c->entry_ns)
			u->top--;
		if (u->top)
			c->depth += u->stack[u->top - 1].depth + 1;
		if (u->session)
			c->session = u->session;	/* one call tree per thread */
		return 0;
	}
	while (u->top && u->stack[u->top - 1].depth >= c->depth)
		u->top--;
	if (u->top == u->cap) {
		size_t cap = u->cap ? 2 * u->cap : 64;
		void *bigger = realloc(u->stack, cap * sizeof(*u->stack));

		if (!bigger)
			return -1;
		u->stack = bigger;
		u->cap = cap;
	}
	u->session = c->session;
	u->stack[u->top].depth = c->depth;
	u->stack[u->top++].end = c->dur_ns < 0 ? UINT64_MAX : c->entry_ns + (uint64_t)c->dur_ns;
	return 0;
}

struct kft_calls *kft_calls_open(const struct kft_trace *tr, const size_t *threads,
				 size_t nthreads, struct kft_error *err)
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
		struct source *s = &cs->src[i];

		if (source_open(s, &tr->threads[threads ? threads[i] : i], false, err))
			goto fail;
		cs->total += s->n + s->nwatch;
		source_advance(s);
		if (s->has_head)
			cs->heap[cs->nheap++] = i;
	}
	kft_heap_make(cs->heap, cs->nheap, sizeof(*cs->heap), before, cs);
	cs->nest_kernel = kft_trace_mixes_kernel(tr);
	return cs;
fail:
	kft_calls_close(cs);
	return NULL;
}

int kft_calls_next(struct kft_calls *cs, struct kft_call *c)
{
	struct source *s;

	if (!cs->nheap)
		return 0;
	s = &cs->src[cs->heap[0]];
	*c = s->head;
	source_advance(s);
	if (!s->has_head)
		cs->heap[0] = cs->heap[--cs->nheap];
	sift_down(cs, 0);
	/* out of memory here only loses the kernel's nesting */
	if (cs->nest_kernel && c->dur_ns != -2)
		nest_kernel_call(cs, c);
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
		source_close(&cs->src[i]);
	for (size_t i = 0; i < cs->nusers; i++)
		free(cs->users[i].stack);
	free(cs->users);
	free(cs->src);
	free(cs->heap);
	free(cs);
}

/* ---- one thread file alone, with Locals -------------------------------- */

struct kft_thread_calls {
	struct source s;
};

struct kft_thread_calls *kft_thread_calls_open(const struct kft_thread_file *th, bool locals,
					       struct kft_error *err)
{
	struct kft_thread_calls *tc = calloc(1, sizeof(*tc));

	if (!tc) {
		kft_error_set(err, "out of memory");
		return NULL;
	}
	if (source_open(&tc->s, th, locals, err)) {
		kft_thread_calls_close(tc);
		return NULL;
	}
	source_advance(&tc->s);
	return tc;
}

const struct kft_call *kft_thread_calls_peek(const struct kft_thread_calls *tc,
					     int64_t *local_ns)
{
	if (!tc->s.has_head)
		return NULL;
	if (local_ns)
		*local_ns = tc->s.head.dur_ns == -2 || !tc->s.local ? -1 : tc->s.head_local;
	return &tc->s.head;
}

void kft_thread_calls_skip(struct kft_thread_calls *tc)
{
	source_advance(&tc->s);
}

int kft_thread_calls_seek(struct kft_thread_calls *tc, uint64_t rec)
{
	struct source *s = &tc->s;

	for (uint64_t p = 0; p < s->n; p++) {
		if (s->idx[p] != rec)
			continue;
		s->pos = p;
		s->wpos = s->nwatch;	/* no stack-watch rows from here */
		source_advance(s);
		return 0;
	}
	return -1;
}

uint64_t kft_thread_calls_tell(const struct kft_thread_calls *tc)
{
	return tc->s.pos - 1;
}

void kft_thread_calls_seek_to(struct kft_thread_calls *tc, uint64_t place)
{
	tc->s.pos = place;
	tc->s.wpos = tc->s.nwatch;	/* no stack-watch rows from here */
	source_advance(&tc->s);
}

void kft_thread_calls_close(struct kft_thread_calls *tc)
{
	if (!tc)
		return;
	source_close(&tc->s);
	free(tc);
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
