// SPDX-License-Identifier: GPL-2.0-only
/*
 * kd's call trees (-c, with -l, -r, -i) and slowest calls of a trace,
 * streamed from its thread files, in memory that does not grow with the
 * calls (each call's place, depth and Local go to a temporary file:
 * common/spill.h). The one engine of a trace's trees;
 * kd-spool.c prints the same rows for what nests by caller name (text
 * logs, --classic).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/functable.h"
#include "../analysis/nest.h"
#include "../common/grow.h"
#include "../common/heap.h"
#include "../format/call-args.h"
#include "../format/call-stream.h"
#include "../format/thread-records.h"
#include "kd-rows.h"

/*
 * Each thread file's call stream (kft_thread_calls); a
 * thread traced in the kernel too has its kernel calls in the streams
 * of its program files, under the program calls that made them. Roots
 * come in entry order; a root's calls come from its thread's stream
 * while the root lasts. Only a signal handler's chain, a root of its own
 * met inside another, is held in memory until its turn.
 */

struct held_root {
	struct kft_node *rows;	/* entry order; depth is the tree depth */
	size_t n, cap;
	struct kft_call key;	/* the chain's first call, for the order */
	size_t file;
	uint64_t seq;		/* held in this order: the stream's, on a tie */
};

struct stream {
	struct tree_ctx tc;
	struct kft_calltree names;	/* funcs only */
	struct kft_functable ft;
	struct kft_thread_calls **files;
	size_t nfiles;
	size_t *heap;			/* files with calls left, earliest first */
	size_t nheap;
	struct held_root *held;
	size_t nheld, heldcap;
	uint64_t nheld_ever;
	struct kft_nest nest;		/* the root being printed's open calls */
	uint64_t base;
	bool inherited;			/* fork children's inherited calls too */
	bool mixes;			/* a thread traced in the kernel too */
	const struct kft_trace *tr;
	struct kft_error *err;
};

static void stream_init(struct stream *s, FILE *out, const struct kft_trace *tr,
			struct kft_symbolizer *sz, const struct kft_kd_opts *o)
{
	s->tc.out = out;
	s->tc.t = &s->names;
	s->tc.o = o;
	s->base = kft_trace_base_ns(tr);
	s->inherited = true;
	s->mixes = kft_trace_mixes_kernel(tr);
	s->tr = tr;
	kft_functable_init(&s->ft, &s->names, sz);
}

/* The next call of file f that is not a stack-watch row, or NULL. */
static const struct kft_call *next_call(struct stream *s, size_t f, int64_t *local)
{
	const struct kft_call *c;

	while ((c = kft_thread_calls_peek(s->files[f], local)) && c->dur_ns == -2)
		kft_thread_calls_skip(s->files[f]);
	return c;
}

/* The order of the whole trace's call stream, which the tree on disk is
 * built in. */
static bool first(const struct kft_call *a, size_t fa, const struct kft_call *b, size_t fb)
{
	return kft_calls_before(a, a->entry_ns, fa, b, b->entry_ns, fb);
}

static bool file_first(const void *pa, const void *pb, void *ctx)
{
	struct stream *s = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	return first(next_call(s, a, NULL), a, next_call(s, b, NULL), b);
}

static void sift(struct stream *s, size_t i)
{
	kft_heap_down(s->heap, s->nheap, sizeof(*s->heap), i, file_first, s);
}

static int stream_oom(struct stream *s)
{
	return kft_error_set(s->err, "out of memory");
}

/* Room for one more of n items of size bytes in *items, doubling. */
static int room_for_one(struct stream *s, void **items, size_t n, size_t *cap, size_t size)
{
	return kft_grow(items, n, cap, size, 16) ? stream_oom(s) : 0;
}

/* Its saved arguments and return value after a row's name, as a C
 * call shows them: "(1, "a") = 2", the node's own (drop_node frees it). */
static int args_of(struct stream *s, const struct kft_call *c, struct kft_node *n)
{
	char args[KFT_ARGS_TEXT_MAX], ret[KFT_ARGS_TEXT_MAX], *text;
	struct kft_call_args a;

	if (!kft_call_args(s->tr, c, &a))
		return 0;
	kft_args_text(&a, args, sizeof(args));
	kft_retval_text(&a, ret, sizeof(ret));
	text = malloc(strlen(args) + strlen(ret) + 8);
	if (!text)
		return stream_oom(s);
	sprintf(text, "(%s)%s%s", args, ret[0] && c->dur_ns >= 0 ? " = " : "",
		c->dur_ns >= 0 ? ret : "");
	n->args = text;
	return 0;
}

/* What to_node gave a node: its arguments' text (the rows printed and
 * let go, memory stays bounded whatever the trace's length). */
static void drop_node(struct kft_node *n)
{
	free((char *)n->args);
	n->args = NULL;
}

/* A call's time as the trees show it (from the first start). */
static int64_t rel_entry(const struct stream *s, const struct kft_call *c)
{
	return (int64_t)(c->entry_ns - (c->entry_ns >= s->base ? s->base : c->entry_ns));
}

/* A call as the tree printer sees it. */
static int to_node(struct stream *s, const struct kft_call *c, int64_t local, uint32_t depth,
		   struct kft_node *n)
{
	memset(n, 0, sizeof(*n));
	n->entry_ns = rel_entry(s, c);
	n->dur_ns = c->dur_ns;
	n->local_ns = local;
	n->depth = depth;
	n->irq = c->flags & KFT_REC_SIGNAL;
	n->inherited = c->flags & KFT_CALL_INHERITED;
	n->tid = c->tid;
	kft_pid_label(n->pid, c->tid, c->coroutine, n->irq);
	if (kft_functable_addr(&s->ft, kft_symbolizer_image(s->ft.sz, c->map_session, c->entry_ns),
			       c->func, &n->func))
		return stream_oom(s);
	return s->tr->nargs ? args_of(s, c, n) : 0;
}

static int emit(struct stream *s, const struct kft_call *c, int64_t local, uint32_t depth,
		char mark)
{
	struct kft_node n;

	if (to_node(s, c, local, depth, &n))
		return -1;
	kft_kd_tree_row(&s->tc, &n, depth, mark);
	drop_node(&n);
	return 0;
}

/* A signal handler's chain, first call c of file f: keep it for later. */
static int hold(struct stream *s, size_t f, const struct kft_call *c, int64_t local)
{
	struct held_root *h;
	uint32_t top = c->depth;

	if (room_for_one(s, (void **)&s->held, s->nheld, &s->heldcap, sizeof(*s->held)))
		return -1;
	h = &s->held[s->nheld++];
	memset(h, 0, sizeof(*h));
	h->key = *c;
	h->file = f;
	h->seq = s->nheld_ever++;
	do {
		if (room_for_one(s, (void **)&h->rows, h->n, &h->cap, sizeof(*h->rows)))
			return -1;
		if (to_node(s, c, local, c->depth - top, &h->rows[h->n++]))
			return -1;
		kft_thread_calls_skip(s->files[f]);
	} while ((c = next_call(s, f, &local)) && c->depth > top);
	return 0;
}

/* c opened in nest at level. */
static int push_open(struct stream *s, struct kft_nest *nest, const struct kft_call *c,
		     uint32_t level)
{
	return kft_nest_push(nest, c, level) ? 0 : stream_oom(s);
}

struct interlace;
static int chains_before(struct interlace *il, int64_t t);

/* How walk_root prints a chain. */
struct walk {
	char mark;		/* the rows' mark: '|', or -i's chain's letter */
	bool hold_handlers;	/* a handler met inside: held for its turn, else left out */
	/* -i: the chains that began before each row go first (they move
	 * this file's stream: it goes back to its place after); NULL: none */
	struct interlace *il;
};

/*
 * One chain: the call at place in file f (with w->il; else the head of
 * f), and every call under it, in entry order. A signal handler met
 * inside is a chain of its own: held (w->hold_handlers) or left out.
 */
static int walk_root(struct stream *s, size_t f, uint64_t place, const struct walk *w)
{
	struct kft_thread_calls *tc = s->files[f];
	struct kft_nest own = { 0 }, *open = w->il ? &own : &s->nest;	/* -i: chains nest */
	uint32_t top = 0, left_out = UINT32_MAX, level = 0;
	bool first_row = true;
	int ret = -1;

	kft_nest_reset(open);
	for (;;) {
		const struct kft_call *c;
		struct kft_call here;
		int64_t local;

		if (w->il)
			kft_thread_calls_seek_to(tc, place);
		c = next_call(s, f, &local);
		if (!c || (!first_row && c->depth <= top))
			break;
		if (w->il)
			place = kft_thread_calls_tell_next(tc);
		if (first_row) {
			top = c->depth;
		} else {
			if (c->depth > left_out) {
				kft_thread_calls_skip(tc);
				continue;
			}
			left_out = UINT32_MAX;
			if (kft_nest_place(open, c, &level) == KFT_NEST_HANDLER) {
				if (w->hold_handlers) {
					if (hold(s, f, c, local))
						goto out;
				} else {
					left_out = c->depth;
					kft_thread_calls_skip(tc);
				}
				continue;
			}
		}
		here = *c;
		if ((w->il && chains_before(w->il, rel_entry(s, &here))) ||
		    emit(s, &here, local, level, w->mark) || push_open(s, open, &here, level))
			goto out;
		if (!w->il)
			kft_thread_calls_skip(tc);
		first_row = false;
	}
	ret = 0;
out:
	kft_nest_free(&own);
	return ret;
}

/* Every function of the trace, so that names are settled before the
 * first row ("name [file]" where two share a name). */
static int name_functions(struct stream *s, const struct kft_trace *tr)
{
	return kft_functable_name_trace(&s->ft, tr) ? stream_oom(s) : 0;
}

/* Room for every file's stream. */
static int stream_files(struct stream *s, const struct kft_trace *tr)
{
	s->files = calloc(tr->nthreads ? tr->nthreads : 1, sizeof(*s->files));
	if (!s->files)
		return stream_oom(s);
	s->nfiles = tr->nthreads;
	return 0;
}

/* File i's stream into streams[i]; in a trace that traced a thread in
 * the kernel too, those of the files read with it (its thread's). */
static int open_file(struct stream *s, const struct kft_trace *tr, size_t i, bool locals,
		     bool inherited, struct kft_thread_calls **streams)
{
	if (s->mixes)
		return kft_thread_calls_open_group(tr, i, locals, inherited, streams, s->err);
	streams[i] = kft_thread_calls_open(&tr->threads[i], locals, inherited, s->err);
	return streams[i] ? 0 : -1;
}

/* After stream_files: every file's stream (a thread traced in the kernel
 * too, its files at once), and the heap of them. */
static int stream_open(struct stream *s, const struct kft_trace *tr)
{
	s->heap = calloc(tr->nthreads ? tr->nthreads : 1, sizeof(*s->heap));
	if (!s->heap)
		return stream_oom(s);
	kft_kd_tree_columns(&s->tc);	/* the Local column: a file of 4 bytes a call */
	for (size_t i = 0; i < tr->nthreads; i++)
		if (!s->files[i] && open_file(s, tr, i, s->tc.col[2], s->inherited, s->files))
			return -1;
	for (size_t i = 0; i < tr->nthreads; i++)
		if (next_call(s, i, NULL))
			s->heap[s->nheap++] = i;
	kft_heap_make(s->heap, s->nheap, sizeof(*s->heap), file_first, s);
	return 0;
}

/* ret, or -1 when a file's Locals could not be read back (err set) */
static int stream_close(struct stream *s, int ret)
{
	for (size_t i = 0; i < s->nfiles; i++) {
		if (!ret && s->files[i] && kft_thread_calls_check(s->files[i], s->err))
			ret = -1;
		kft_thread_calls_close(s->files[i]);
	}
	for (size_t i = 0; i < s->nheld; i++) {
		for (size_t k = 0; k < s->held[i].n; k++)
			drop_node(&s->held[i].rows[k]);
		free(s->held[i].rows);
	}
	free(s->files);
	free(s->heap);
	free(s->held);
	kft_nest_free(&s->nest);
	free(s->tc.lb.s);
	free(s->tc.open_end);
	kft_functable_done(&s->ft);
	kft_calltree_free(&s->names);
	return ret;
}

/* The held chain that comes first, or s->nheld. */
static size_t first_held(struct stream *s)
{
	size_t best = s->nheld;

	for (size_t i = 0; i < s->nheld; i++) {
		const struct held_root *h = &s->held[i], *b = &s->held[best];

		if (best == s->nheld || first(&h->key, h->file, &b->key, b->file) ||
		    (!first(&b->key, b->file, &h->key, h->file) && h->seq < b->seq))
			best = i;
	}
	return best;
}

static void print_held(struct stream *s, size_t i)
{
	struct held_root h = s->held[i];

	for (size_t k = 0; k < h.n; k++) {
		kft_kd_tree_row(&s->tc, &h.rows[k], h.rows[k].depth, '|');
		drop_node(&h.rows[k]);
	}
	free(h.rows);
	s->held[i] = s->held[--s->nheld];
}

int kft_view_kd_tree_stream(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			    const struct kft_kd_opts *o, struct kft_error *err)
{
	struct stream s = { .err = err };
	int ret = -1;

	stream_init(&s, out, tr, sz, o);
	if (stream_files(&s, tr) || name_functions(&s, tr) || stream_open(&s, tr))
		goto out;
	kft_kd_tree_columns(&s.tc);
	kft_kd_tree_header(&s.tc);
	for (;;) {
		size_t h = first_held(&s);

		if (h < s.nheld && (!s.nheap || first(&s.held[h].key, s.held[h].file,
						      next_call(&s, s.heap[0], NULL), s.heap[0]))) {
			print_held(&s, h);
			continue;
		}
		if (!s.nheap)
			break;
		if (walk_root(&s, s.heap[0], 0, &(struct walk){ '|', true, NULL }))
			goto out;
		if (!next_call(&s, s.heap[0], NULL))
			s.heap[0] = s.heap[--s.nheap];
		sift(&s, 0);
	}
	kft_kd_tree_end(&s.tc);
	ret = 0;
out:
	return stream_close(&s, ret);
}

/* ---- the whole stream in its order, each call placed in its tree ------- */

typedef int (*placed_fn)(struct stream *s, size_t file, const struct kft_call *c, int64_t local,
			 uint32_t depth, void *ctx);

/* fn for every call of the stream in turn, at its depth in its tree
 * (each file's calls open kept; a handler's chain a root of its own). */
static int each_placed(struct stream *s, const struct kft_trace *tr, placed_fn fn, void *ctx)
{
	struct kft_nest *open = calloc(tr->nthreads ? tr->nthreads : 1, sizeof(*open));
	int ret = open ? 0 : stream_oom(s);

	while (!ret && s->nheap) {
		size_t f = s->heap[0];
		int64_t local;
		const struct kft_call *c = next_call(s, f, &local);
		uint32_t depth;

		kft_nest_place(&open[f], c, &depth);
		if ((ret = push_open(s, &open[f], c, depth)) || (ret = fn(s, f, c, local, depth, ctx)))
			break;
		kft_thread_calls_skip(s->files[f]);
		if (!next_call(s, f, NULL))
			s->heap[0] = s->heap[--s->nheap];
		sift(s, 0);
	}
	for (size_t i = 0; open && i < tr->nthreads; i++)
		kft_nest_free(&open[i]);
	free(open);
	return ret;
}

/* ---- -r: rows in the order of the call stream, streamed ---------------- */

static int emit_row(struct stream *s, size_t file, const struct kft_call *c, int64_t local,
		    uint32_t depth, void *ctx)
{
	(void)file, (void)ctx;
	return emit(s, c, local, depth, '|');
}

int kft_view_kd_rows_stream(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			    const struct kft_kd_opts *o, struct kft_error *err)
{
	struct stream s = { .err = err };
	int ret = -1;

	stream_init(&s, out, tr, sz, o);
	if (!stream_files(&s, tr) && !name_functions(&s, tr) && !stream_open(&s, tr)) {
		kft_kd_tree_columns(&s.tc);
		kft_kd_tree_header(&s.tc);
		ret = each_placed(&s, tr, emit_row, NULL);
	}
	return stream_close(&s, ret);
}

/* ---- -i: other threads and handlers where they began, streamed -------- */

/* A chain of its own: where it starts in its file's stream. */
struct root {
	size_t file;
	uint64_t place;
};

struct interlace {
	struct stream *s;
	struct root *roots;
	size_t nroots, cap, next;
	int64_t next_at;		/* when roots[next] began */
	unsigned int nmarks;
};

/* A chain's start, kept: 16 bytes a chain. */
static int note_root(struct stream *s, size_t file, const struct kft_call *c, int64_t local,
		     uint32_t depth, void *ctx)
{
	struct interlace *il = ctx;

	(void)c, (void)local;
	if (depth)
		return 0;
	if (room_for_one(s, (void **)&il->roots, il->nroots, &il->cap, sizeof(*il->roots)))
		return -1;
	il->roots[il->nroots++] = (struct root){ file, kft_thread_calls_tell(s->files[file]) };
	return 0;
}

/* Take the next chain in line: when it began. */
static void take_root(struct interlace *il)
{
	const struct root *r;

	il->next_at = INT64_MAX;
	if (il->next < il->nroots) {
		r = &il->roots[il->next];
		kft_thread_calls_seek_to(il->s->files[r->file], r->place);
		il->next_at = rel_entry(il->s, next_call(il->s, r->file, NULL));
	}
}

/* The chains that began before time t, each between banners. */
static int chains_before(struct interlace *il, int64_t t)
{
	struct stream *s = il->s;

	while (il->next < il->nroots && il->next_at < t) {
		const struct root *r = &il->roots[il->next++];
		char mark;

		take_root(il);
		mark = kft_kd_root_mark(il->nmarks++);
		fprintf(s->tc.out, "----------- %c%c%c%c start --------------\n", mark, mark, mark, mark);
		if (walk_root(s, r->file, r->place, &(struct walk){ mark, false, il }))
			return -1;
		fprintf(s->tc.out, "----------- %c%c%c%c end ----------------\n", mark, mark, mark, mark);
	}
	return 0;
}

int kft_view_kd_interlaced_stream(FILE *out, const struct kft_trace *tr,
				  struct kft_symbolizer *sz, const struct kft_kd_opts *o,
				  struct kft_error *err)
{
	struct stream s = { .err = err };
	struct interlace il = { .s = &s };
	int ret = -1;

	stream_init(&s, out, tr, sz, o);
	if (stream_files(&s, tr) || name_functions(&s, tr) || stream_open(&s, tr) ||
	    each_placed(&s, tr, note_root, &il))
		goto out;
	kft_kd_tree_columns(&s.tc);
	kft_kd_tree_header(&s.tc);
	take_root(&il);
	while (il.next < il.nroots) {
		const struct root *r = &il.roots[il.next++];
		char mark = kft_kd_root_mark(il.nmarks++);
		const struct kft_call *c;
		int64_t end;

		take_root(&il);
		kft_thread_calls_seek_to(s.files[r->file], r->place);
		c = next_call(&s, r->file, NULL);
		end = c->dur_ns < 0 ? INT64_MAX : rel_entry(&s, c) + c->dur_ns;
		if (walk_root(&s, r->file, r->place, &(struct walk){ mark, false, &il }) ||
		    chains_before(&il, end))
			goto out;
	}
	ret = 0;
out:
	free(il.roots);
	return stream_close(&s, ret);
}

/* ---- the slowest calls, streamed -------------------------------------- */

struct hit {
	int64_t dur_ns;
	struct kft_call key;	/* for ties: the order of the call stream */
	size_t file;
	uint64_t rec;
};

/* Whether a ranks before b: slower, or as slow and entered first. */
static bool ranks_before(const struct hit *a, const struct hit *b)
{
	if (a->dur_ns != b->dur_ns)
		return a->dur_ns > b->dur_ns;
	return first(&a->key, a->file, &b->key, b->file);
}

/* The best n so far as a heap whose top is the worst of them. */
struct top {
	struct hit *h;
	size_t n, max;
};

static bool ranks_after(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return ranks_before(b, a);
}

static void top_offer(struct top *t, const struct hit *h)
{
	if (t->n < t->max) {
		t->h[t->n] = *h;
		kft_heap_up(t->h, sizeof(*t->h), t->n++, ranks_after, NULL);
	} else if (ranks_before(h, &t->h[0])) {
		t->h[0] = *h;
		kft_heap_down(t->h, t->n, sizeof(*t->h), 0, ranks_after, NULL);
	}
}

static int cmp_rank(const void *a, const void *b)
{
	return ranks_before(a, b) ? -1 : ranks_before(b, a) ? 1 : 0;
}

/* Every finished call of func, the n slowest kept. */
static int find_slowest(struct stream *s, const struct kft_trace *tr, const char *func,
			struct top *top)
{
	size_t named = s->names.nfuncs;	/* a damaged record may name more */
	bool *wanted = calloc(named ? named : 1, sizeof(*wanted));

	if (!wanted)
		return stream_oom(s);
	for (size_t i = 0; i < named; i++)
		wanted[i] = !strcmp(s->names.funcs[i].name, func) ||
			    !strcmp(s->names.funcs[i].base_name, func);
	for (size_t f = 0; f < tr->nthreads; f++) {
		const struct kft_thread_file *th = &tr->threads[f];

		for (uint64_t i = 0; i < th->nrecs; i++) {
			struct kft_rec_data r;
			struct hit h = { .file = f, .rec = i };
			uint32_t id;

			kft_thread_rec(th, i, &r);
			h.dur_ns = kft_dur_decode(r.dur);
			if (h.dur_ns < 0 ||
			    kft_functable_addr(&s->ft,
					       kft_symbolizer_image(s->ft.sz, th->hdr.session,
								    r.entry_ns),
					       r.func, &id) ||
			    id >= named || !wanted[id])
				continue;
			h.key.entry_ns = r.entry_ns;
			h.key.tid = th->hdr.tid;
			h.key.session = th->hdr.session;
			h.key.depth = r.depth;
			top_offer(top, &h);
		}
	}
	free(wanted);
	qsort(top->h, top->n, sizeof(*top->h), cmp_rank);
	return 0;
}

/* The stream of file f, opened once and kept for its other hits: a
 * program file's with its thread's kernel calls, a kernel file's alone
 * (a kernel call's subtree is all its own file's). */
static int open_for_hits(struct stream *s, const struct kft_trace *tr, size_t f)
{
	struct kft_thread_calls **got;

	if (s->files[f])
		return 0;
	if (kft_thread_is_kernel(&tr->threads[f]))
		return (s->files[f] = kft_thread_calls_open(&tr->threads[f], true, false, s->err))
			       ? 0 : -1;
	if (!(got = calloc(tr->nthreads, sizeof(*got))))
		return stream_oom(s);
	if (open_file(s, tr, f, true, false, got)) {
		free(got);
		return -1;
	}
	for (size_t i = 0; i < tr->nthreads; i++) {
		if (!got[i])
			continue;
		if (!s->files[i] && !kft_thread_is_kernel(&tr->threads[i]))
			s->files[i] = got[i];
		else
			kft_thread_calls_close(got[i]);
	}
	free(got);
	return 0;
}

int kft_view_kd_slowest_stream(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			       const struct kft_kd_opts *o, const char *func, long n,
			       struct kft_error *err)
{
	struct kft_kd_opts all = *o;
	struct stream s = { .err = err };
	struct top top = { .max = (size_t)n };
	int ret = -1;

	all.columns = KFT_KD_TREE_COLUMNS;
	stream_init(&s, out, tr, sz, &all);
	s.inherited = false;	/* never inside a finished call */
	top.h = malloc((size_t)n * sizeof(*top.h));
	if (!top.h) {
		stream_oom(&s);
		goto out;
	}
	if (stream_files(&s, tr) || name_functions(&s, tr) || find_slowest(&s, tr, func, &top))
		goto out;
	if (!top.n) {
		kft_error_set(err, "no finished call of '%s' in the trace", func);
		goto out;
	}
	kft_kd_tree_columns(&s.tc);
	s.tc.notes_within_roots = true;
	for (size_t i = 0; i < top.n; i++) {
		const struct hit *h = &top.h[i];
		const struct kft_call *c;
		struct kft_node node;

		if (open_for_hits(&s, tr, h->file))
			goto out;
		if (kft_thread_calls_seek(s.files[h->file], h->rec) ||
		    !(c = next_call(&s, h->file, NULL))) {
			kft_error_set(err, "%s: record %llu is no call", tr->threads[h->file].name,
				      (unsigned long long)h->rec);
			goto out;
		}
		if (to_node(&s, c, 0, 0, &node))
			goto out;
		fprintf(out, "%s#%zu: %s, %lld usec, entered at %lld usec, pid %s\n", i ? "\n" : "",
			i + 1, s.names.funcs[node.func].name, kft_kd_us(node.dur_ns),
			kft_kd_us(node.entry_ns), node.pid);
		drop_node(&node);
		kft_kd_tree_header(&s.tc);
		if (walk_root(&s, h->file, 0, &(struct walk){ '|', false, NULL }))
			goto out;
		kft_kd_tree_root_done(&s.tc);
	}
	kft_kd_tree_end(&s.tc);
	ret = 0;
out:
	free(top.h);
	return stream_close(&s, ret);
}
