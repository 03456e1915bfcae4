// SPDX-License-Identifier: GPL-2.0-only
/*
 * kd's call trees (-c): as kd 1.1 printed them, from a tree in memory
 * (text logs, -i, -r, --classic, --slowest) or streamed from a trace.
 */
#include <stdlib.h>
#include <string.h>

#include "../analysis/functable.h"
#include "../common/heap.h"
#include "../format/calls.h"
#include "kd.h"
#include "kd-lines.h"

/* ---- call trees ------------------------------------------------------- */

static const char root_marks[] = "|!@[#;($/{%]*)&:\\}";

struct tree_ctx {
	FILE *out;
	const struct kft_calltree *t;
	const struct kft_kd_opts *o;
	bool col[4];		/* e t l p */
	size_t next_root;	/* roots before it are printed */
	unsigned int nmarks;	/* roots given a mark so far */
	struct kft_linebuf lb;
};

static void tree_header(struct tree_ctx *c)
{
	static const char *titles[] = { " Entry     ", " Duration  ", " Local     ", "  Pid   " };
	static const char *dashes[] = { "---------- ", "---------- ", "---------- ", "------- " };

	for (int pass = 0; pass < 2; pass++) {
		c->lb.len = 0;
		for (int i = 0; i < 4; i++)
			if (c->col[i])
				kft_lb_add(&c->lb, "%s", pass ? dashes[i] : titles[i]);
		kft_lb_add(&c->lb, "%s", pass ? "---------------------------------" : " Trace ");
		if (c->lb.s)
			kft_kd_put_line(c->out, c->lb.s);
	}
}

/* v right-aligned in 10 columns and a blank, at p (printf is most of the
 * time of a large tree); returns the end. */
static char *put_num(char *p, long long v)
{
	char digits[24];
	int n = 0;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	do
		digits[n++] = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		digits[n++] = '-';
	for (int i = n; i < 10; i++)
		*p++ = ' ';
	while (n)
		*p++ = digits[--n];
	*p++ = ' ';
	return p;
}

static char *put_text(char *p, const char *s, int width)
{
	size_t n = strlen(s);

	for (int i = (int)n; i < width; i++)
		*p++ = ' ';
	memcpy(p, s, n);
	p += n;
	*p++ = ' ';
	return p;
}

/* The columns and the indentation of a row, in the line buffer. */
static bool row_start(struct tree_ctx *c, const struct kft_node *n, unsigned int depth, char mark,
		      size_t name_len)
{
	size_t need = 4 * 32 + strlen(n->pid) + 3 * (size_t)depth + name_len + 1;
	char *p;

	if (c->lb.cap < need) {
		char *bigger = realloc(c->lb.s, need * 2);

		if (!bigger)
			return false;
		c->lb.s = bigger;
		c->lb.cap = need * 2;
	}
	p = c->lb.s;
	if (c->col[0])
		p = put_num(p, kft_kd_us(n->entry_ns));
	if (c->col[1])
		p = put_num(p, n->dur_ns < 0 ? -1LL : kft_kd_us(n->dur_ns));
	if (c->col[2])
		p = n->local_ns < 0 && !c->o->classic ? put_text(p, "-", 10)
						      : put_num(p, kft_kd_us(n->local_ns));
	if (c->col[3])
		p = put_text(p, n->pid, 7);
	for (unsigned int d = 0; d < depth; d++) {
		p[0] = mark;
		p[1] = p[2] = ' ';
		p += 3;
	}
	c->lb.len = (size_t)(p - c->lb.s);
	c->lb.s[c->lb.len] = '\0';
	return true;
}

static void tree_row(struct tree_ctx *c, const struct kft_node *n, unsigned int depth, char mark)
{
	const char *name = c->o->classic ? c->t->funcs[n->func].base_name : c->t->funcs[n->func].name;
	size_t len = strlen(name);

	if (!row_start(c, n, depth, mark, len))
		return;
	if (!n->args && len && name[len - 1] != ' ') {
		/* the common row: nothing to trim, no printf */
		memcpy(c->lb.s + c->lb.len, name, len);
		c->lb.s[c->lb.len + len] = '\n';
		fwrite_unlocked(c->lb.s, 1, c->lb.len + len + 1, c->out);
		return;
	}
	kft_lb_add(&c->lb, "%s", name);
	if (n->args) {
		long pad = 3L * ((long)c->o->max_depth - (long)depth) +
			   ((long)c->o->max_funclen - (long)strlen(name));

		kft_lb_add(&c->lb, "%*s%s", (int)(pad > 1 ? pad : 1), "", n->args);
	}
	if (c->lb.s)
		kft_kd_put_line(c->out, c->lb.s);
}

static void print_subtree(struct tree_ctx *c, uint32_t idx, unsigned int depth, char mark);

/* Other threads' and interrupts' chains that began before this entry. */
static void interlace_before(struct tree_ctx *c, int64_t entry_ns)
{
	const struct kft_calltree *t = c->t;

	while (c->next_root < t->nroots && t->nodes[t->roots[c->next_root]].entry_ns < entry_ns) {
		uint32_t r = t->roots[c->next_root++];
		char mark = root_marks[c->nmarks++ % (sizeof(root_marks) - 1)];

		fprintf(c->out, "----------- %c%c%c%c start --------------\n", mark, mark, mark, mark);
		print_subtree(c, r, 0, mark);
		fprintf(c->out, "----------- %c%c%c%c end ----------------\n", mark, mark, mark, mark);
	}
}

/* Depth first, without recursion: a trace may nest 100000 calls deep. */
static void print_subtree(struct tree_ctx *c, uint32_t idx, unsigned int depth, char mark)
{
	const struct kft_node *nodes = c->t->nodes;
	uint32_t cur = idx;

	for (;;) {
		if (c->o->interlace)
			interlace_before(c, nodes[cur].entry_ns);
		tree_row(c, &nodes[cur], depth, mark);
		if (nodes[cur].first_child != KFT_NONE) {
			cur = nodes[cur].first_child;
			depth++;
			continue;
		}
		while (cur != idx && nodes[cur].next_sibling == KFT_NONE) {
			cur = nodes[cur].parent;
			depth--;
		}
		if (cur == idx)
			return;
		cur = nodes[cur].next_sibling;
	}
}

static void tree_columns(struct tree_ctx *c)
{
	const char *cols = c->o->columns ? c->o->columns : "";

	for (int i = 0; i < 4; i++)
		c->col[i] = strchr(cols, KFT_KD_TREE_COLUMNS[i]) != NULL;
}

int kft_view_kd_tree(FILE *out, const struct kft_calltree *t, const struct kft_kd_opts *o,
		     struct kft_error *err)
{
	struct tree_ctx c = { .out = out, .t = t, .o = o };

	(void)err;
	tree_columns(&c);
	tree_header(&c);
	if (o->raw_order) {
		for (size_t i = 0; i < t->nnodes; i++)
			tree_row(&c, &t->nodes[i], t->nodes[i].depth, '|');
	} else {
		while (c.next_root < t->nroots) {
			uint32_t r = t->roots[c.next_root++];
			const struct kft_node *n = &t->nodes[r];
			char mark = o->interlace ? root_marks[c.nmarks++ % (sizeof(root_marks) - 1)] : '|';

			print_subtree(&c, r, 0, mark);
			/* what began while this chain was still open belongs inside it */
			if (o->interlace)
				interlace_before(&c, n->dur_ns < 0 ? INT64_MAX : n->entry_ns + n->dur_ns);
		}
	}
	free(c.lb.s);
	return 0;
}

static const struct kft_calltree *slow_tree;

static int cmp_slowest(const void *a, const void *b)
{
	int64_t x = slow_tree->nodes[*(const uint32_t *)a].dur_ns;
	int64_t y = slow_tree->nodes[*(const uint32_t *)b].dur_ns;

	if (x != y)
		return x > y ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

int kft_view_kd_slowest(FILE *out, const struct kft_calltree *t, const struct kft_kd_opts *o,
			const char *func, long n, struct kft_error *err)
{
	struct kft_kd_opts all = *o;
	struct tree_ctx c = { .out = out, .t = t, .o = &all };
	uint32_t *hits;
	size_t nhits = 0;

	all.columns = KFT_KD_TREE_COLUMNS;
	all.interlace = false;
	hits = malloc((t->nnodes ? t->nnodes : 1) * sizeof(*hits));
	if (!hits)
		return kft_error_set(err, "out of memory");
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct kft_func *f = &t->funcs[t->nodes[i].func];

		if (t->nodes[i].dur_ns >= 0 && (!strcmp(f->name, func) || !strcmp(f->base_name, func)))
			hits[nhits++] = (uint32_t)i;
	}
	if (!nhits) {
		free(hits);
		return kft_error_set(err, "no finished call of '%s' in the trace", func);
	}
	slow_tree = t;
	qsort(hits, nhits, sizeof(*hits), cmp_slowest);
	tree_columns(&c);
	for (size_t i = 0; i < nhits && (long)i < n; i++) {
		const struct kft_node *node = &t->nodes[hits[i]];

		fprintf(out, "%s#%zu: %s, %lld usec, entered at %lld usec, pid %s\n", i ? "\n" : "",
			i + 1, t->funcs[node->func].name, kft_kd_us(node->dur_ns), kft_kd_us(node->entry_ns),
			node->pid);
		tree_header(&c);
		print_subtree(&c, hits[i], 0, '|');
	}
	free(c.lb.s);
	free(hits);
	return 0;
}

/* ---- streamed from a trace -------------------------------------------- */

/*
 * The same trees as kft_view_kd_tree's, read from each thread file's call
 * stream (kft_thread_calls: 12 bytes a call) instead of a tree in memory.
 * Roots come in entry order; a root's calls come from its thread's stream
 * while the root lasts. Only a signal handler's chain, a root of its own
 * met inside another, is held in memory until its turn.
 */

struct held_root {
	struct kft_node *rows;	/* entry order; depth is the tree depth */
	size_t n, cap;
	struct kft_call key;	/* the chain's first call, for the order */
	size_t file;
};

struct open_call {
	uint32_t depth;
	bool irq;
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
	struct open_call *open;
	size_t nopen, opencap;
	uint64_t base;
	struct kft_error *err;
};

/* The next call of file f that is not a stack-watch row, or NULL. */
static const struct kft_call *next_call(struct stream *s, size_t f, int64_t *local)
{
	const struct kft_call *c;

	while ((c = kft_thread_calls_peek(s->files[f], local)) && c->dur_ns == -2)
		kft_thread_calls_skip(s->files[f]);
	return c;
}

/* The order of the whole trace's call stream, which the tree in memory
 * is built in. */
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
	size_t more = *cap ? 2 * *cap : 16;
	void *bigger;

	if (n < *cap)
		return 0;
	bigger = realloc(*items, more * size);
	if (!bigger)
		return stream_oom(s);
	*items = bigger;
	*cap = more;
	return 0;
}

/* "1234", or "1234i" in a signal handler (snprintf was a tenth of -c's
 * time) */
static void put_pid(char *out, uint32_t tid, bool irq)
{
	char digits[12];
	int n = 0;

	do
		digits[n++] = (char)('0' + tid % 10);
	while (tid /= 10);
	while (n)
		*out++ = digits[--n];
	if (irq)
		*out++ = 'i';
	*out = '\0';
}

/* A call as the tree printer sees it. */
static int to_node(struct stream *s, const struct kft_call *c, int64_t local, uint32_t depth,
		   struct kft_node *n)
{
	memset(n, 0, sizeof(*n));
	n->entry_ns = (int64_t)(c->entry_ns - (c->entry_ns >= s->base ? s->base : c->entry_ns));
	n->dur_ns = c->dur_ns;
	n->local_ns = local;
	n->depth = depth;
	n->irq = c->flags & KFT_REC_SIGNAL;
	n->tid = c->tid;
	put_pid(n->pid, c->tid, n->irq);
	if (kft_functable_addr(&s->ft, c->session, c->func, &n->func))
		return stream_oom(s);
	/* a function met only now (none should be) has its bare name */
	if (!s->names.funcs[n->func].name)
		s->names.funcs[n->func].name = s->names.funcs[n->func].base_name;
	return 0;
}

static int emit(struct stream *s, const struct kft_call *c, int64_t local, uint32_t depth)
{
	struct kft_node n;

	if (to_node(s, c, local, depth, &n))
		return -1;
	tree_row(&s->tc, &n, depth, '|');
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
	do {
		if (room_for_one(s, (void **)&h->rows, h->n, &h->cap, sizeof(*h->rows)))
			return -1;
		if (to_node(s, c, local, c->depth - top, &h->rows[h->n++]))
			return -1;
		kft_thread_calls_skip(s->files[f]);
	} while ((c = next_call(s, f, &local)) && c->depth > top);
	return 0;
}

static int push_open(struct stream *s, uint32_t depth, bool irq)
{
	if (room_for_one(s, (void **)&s->open, s->nopen, &s->opencap, sizeof(*s->open)))
		return -1;
	s->open[s->nopen].depth = depth;
	s->open[s->nopen++].irq = irq;
	return 0;
}

/*
 * The call at the head of file f, and every call under it. A signal
 * handler met inside is a chain of its own: held for its turn among the
 * roots (hold_handlers), or left out.
 */
static int print_calls(struct stream *s, size_t f, bool hold_handlers)
{
	int64_t local;
	const struct kft_call *c = next_call(s, f, &local);
	uint32_t top = c->depth;
	uint32_t left_out = UINT32_MAX;	/* a handler's chain below this depth */

	s->nopen = 0;
	if (emit(s, c, local, 0) || push_open(s, c->depth, c->flags & KFT_REC_SIGNAL))
		return -1;
	kft_thread_calls_skip(s->files[f]);
	while ((c = next_call(s, f, &local)) && c->depth > top) {
		bool irq = c->flags & KFT_REC_SIGNAL;

		if (c->depth > left_out) {
			kft_thread_calls_skip(s->files[f]);
			continue;
		}
		left_out = UINT32_MAX;
		while (s->nopen && s->open[s->nopen - 1].depth >= c->depth)
			s->nopen--;
		if (irq && s->nopen && !s->open[s->nopen - 1].irq) {
			if (hold_handlers) {
				if (hold(s, f, c, local))
					return -1;
			} else {
				left_out = c->depth;
				kft_thread_calls_skip(s->files[f]);
			}
			continue;
		}
		if (emit(s, c, local, c->depth - top) || push_open(s, c->depth, irq))
			return -1;
		kft_thread_calls_skip(s->files[f]);
	}
	return 0;
}

/* Every function of the trace, so that names are settled before the
 * first row ("name [file]" where two share a name). */
static int name_functions(struct stream *s, const struct kft_trace *tr)
{
	uint32_t id;

	for (size_t i = 0; i < tr->nthreads; i++) {
		const struct kft_thread_file *th = &tr->threads[i];

		for (uint64_t k = 0; k < th->nsites; k++)
			if (kft_functable_addr(&s->ft, th->hdr.session, th->sites[k].func, &id))
				return stream_oom(s);
		for (uint64_t k = 0; k < th->nframes; k++)
			if ((th->frames[k].flags & KFT_FRAME_LOGGED) &&
			    kft_functable_addr(&s->ft, th->hdr.session, th->frames[k].func, &id))
				return stream_oom(s);
	}
	return kft_functable_finish(&s->ft) ? stream_oom(s) : 0;
}

static int stream_open(struct stream *s, const struct kft_trace *tr)
{
	s->files = calloc(tr->nthreads ? tr->nthreads : 1, sizeof(*s->files));
	s->heap = calloc(tr->nthreads ? tr->nthreads : 1, sizeof(*s->heap));
	if (!s->files || !s->heap)
		return stream_oom(s);
	for (size_t i = 0; i < tr->nthreads; i++) {
		s->files[i] = kft_thread_calls_open(&tr->threads[i], s->err);
		if (!s->files[i])
			return -1;
		s->nfiles++;
		if (next_call(s, i, NULL))
			s->heap[s->nheap++] = i;
	}
	kft_heap_make(s->heap, s->nheap, sizeof(*s->heap), file_first, s);
	return 0;
}

static void stream_close(struct stream *s)
{
	for (size_t i = 0; i < s->nfiles; i++)
		kft_thread_calls_close(s->files[i]);
	for (size_t i = 0; i < s->nheld; i++)
		free(s->held[i].rows);
	free(s->files);
	free(s->heap);
	free(s->held);
	free(s->open);
	free(s->tc.lb.s);
	kft_functable_done(&s->ft);
	kft_calltree_free(&s->names);
}

/* The held chain that comes first, or s->nheld. */
static size_t first_held(struct stream *s)
{
	size_t best = s->nheld;

	for (size_t i = 0; i < s->nheld; i++)
		if (best == s->nheld ||
		    first(&s->held[i].key, s->held[i].file, &s->held[best].key, s->held[best].file))
			best = i;
	return best;
}

static void print_held(struct stream *s, size_t i)
{
	struct held_root h = s->held[i];

	for (size_t k = 0; k < h.n; k++)
		tree_row(&s->tc, &h.rows[k], h.rows[k].depth, '|');
	free(h.rows);
	s->held[i] = s->held[--s->nheld];
}

int kft_view_kd_tree_stream(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			    const struct kft_kd_opts *o, struct kft_error *err)
{
	struct stream s = { .err = err };
	int ret = -1;

	s.tc.out = out;
	s.tc.t = &s.names;
	s.tc.o = o;
	s.base = tr->ctl.first_start_ns == UINT64_MAX ? 0 : tr->ctl.first_start_ns;
	kft_functable_init(&s.ft, &s.names, sz);
	if (name_functions(&s, tr) || stream_open(&s, tr))
		goto out;
	tree_columns(&s.tc);
	tree_header(&s.tc);
	for (;;) {
		size_t h = first_held(&s);

		if (h < s.nheld && (!s.nheap || first(&s.held[h].key, s.held[h].file,
						      next_call(&s, s.heap[0], NULL), s.heap[0]))) {
			print_held(&s, h);
			continue;
		}
		if (!s.nheap)
			break;
		if (print_calls(&s, s.heap[0], true))
			goto out;
		if (!next_call(&s, s.heap[0], NULL))
			s.heap[0] = s.heap[--s.nheap];
		sift(&s, 0);
	}
	ret = 0;
out:
	stream_close(&s);
	return ret;
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
	bool *wanted = calloc(s->names.nfuncs ? s->names.nfuncs : 1, sizeof(*wanted));

	if (!wanted)
		return stream_oom(s);
	for (size_t i = 0; i < s->names.nfuncs; i++)
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
			    kft_functable_addr(&s->ft, th->hdr.session, r.func, &id) ||
			    id >= s->names.nfuncs || !wanted[id])
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

int kft_view_kd_slowest_stream(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			       const struct kft_kd_opts *o, const char *func, long n,
			       struct kft_error *err)
{
	struct kft_kd_opts all = *o;
	struct stream s = { .err = err };
	struct top top = { .max = (size_t)n };
	int ret = -1;

	all.columns = KFT_KD_TREE_COLUMNS;
	s.tc.out = out;
	s.tc.t = &s.names;
	s.tc.o = &all;
	s.base = tr->ctl.first_start_ns == UINT64_MAX ? 0 : tr->ctl.first_start_ns;
	kft_functable_init(&s.ft, &s.names, sz);
	s.files = calloc(tr->nthreads ? tr->nthreads : 1, sizeof(*s.files));
	top.h = malloc((size_t)n * sizeof(*top.h));
	if (!s.files || !top.h) {
		stream_oom(&s);
		goto out;
	}
	s.nfiles = tr->nthreads;
	if (name_functions(&s, tr) || find_slowest(&s, tr, func, &top))
		goto out;
	if (!top.n) {
		kft_error_set(err, "no finished call of '%s' in the trace", func);
		goto out;
	}
	tree_columns(&s.tc);
	for (size_t i = 0; i < top.n; i++) {
		const struct hit *h = &top.h[i];
		const struct kft_call *c;
		struct kft_node node;

		/* each thread's stream once, kept for its other hits */
		if (!s.files[h->file] &&
		    !(s.files[h->file] = kft_thread_calls_open(&tr->threads[h->file], err)))
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
		tree_header(&s.tc);
		if (print_calls(&s, h->file, false))
			goto out;
	}
	ret = 0;
out:
	free(top.h);
	stream_close(&s);
	return ret;
}
