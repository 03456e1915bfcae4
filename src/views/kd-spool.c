// SPDX-License-Identifier: GPL-2.0-only
/*
 * kd's call trees (-c, -r, -i, --slowest) from a tree on disk
 * (spooltree.h): text logs and --classic. The file holds the calls in
 * depth-first order, so a subtree is a run of places read in order.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../common/heap.h"
#include "../analysis/spooltree.h"
#include "kd-rows.h"

struct spool_ctx {
	struct tree_ctx c;
	struct kft_spooltree *st;
	uint64_t next_root;	/* the place of the first root not yet printed */
	struct kft_error *err;
};

static int print_subtree(struct spool_ctx *s, uint64_t at, char mark);

/* Other threads' and interrupts' chains that began before this entry. */
static int interlace_before(struct spool_ctx *s, int64_t entry_ns)
{
	while (s->next_root < s->st->ncalls) {
		struct kft_node n;
		uint64_t r = s->next_root;
		uint32_t size;
		char mark;

		if (kft_spooltree_get(s->st, r, &n, &size, NULL, s->err))
			return -1;
		if (n.entry_ns >= entry_ns)
			return 0;
		s->next_root += size;
		mark = kft_kd_root_mark(s->c.nmarks++);
		fprintf(s->c.out, "----------- %c%c%c%c start --------------\n", mark, mark, mark,
			mark);
		if (print_subtree(s, r, mark))
			return -1;
		fprintf(s->c.out, "----------- %c%c%c%c end ----------------\n", mark, mark, mark,
			mark);
	}
	return 0;
}

/* The subtree at place at, depths counted from its root. */
static int print_subtree(struct spool_ctx *s, uint64_t at, char mark)
{
	struct kft_node n;
	uint32_t size, root_depth = 0;

	if (kft_spooltree_get(s->st, at, &n, &size, NULL, s->err))
		return -1;
	root_depth = n.depth;
	for (uint64_t p = at, end = at + size; p < end; p++) {
		if (p != at && kft_spooltree_get(s->st, p, &n, NULL, NULL, s->err))
			return -1;
		if (s->c.o->interlace) {
			if (interlace_before(s, n.entry_ns))
				return -1;
			/* that may have read other places: this one again */
			if (kft_spooltree_get(s->st, p, &n, NULL, NULL, s->err))
				return -1;
		}
		kft_kd_tree_row(&s->c, &n, n.depth - root_depth, mark);
	}
	return 0;
}

int kft_view_kd_tree_spool(FILE *out, struct kft_spooltree *st, const struct kft_kd_opts *o,
			   struct kft_error *err)
{
	struct spool_ctx s = { .c = { .out = out, .t = &st->t, .o = o }, .st = st, .err = err };
	struct kft_node n;
	int ret = 0;

	kft_kd_tree_columns(&s.c);
	kft_kd_tree_header(&s.c);
	if (o->raw_order) {
		for (uint64_t i = 0; i < st->ncalls && !ret; i++) {
			ret = kft_spooltree_get(st, st->place[i], &n, NULL, NULL, err);
			if (!ret)
				kft_kd_tree_row(&s.c, &n, n.depth, '|');
		}
	}
	while (!o->raw_order && !ret && s.next_root < st->ncalls) {
		uint64_t r = s.next_root;
		uint32_t size;
		char mark = o->interlace ? kft_kd_root_mark(s.c.nmarks++) : '|';

		if (kft_spooltree_get(st, r, &n, &size, NULL, err))
			ret = -1;
		else
			s.next_root += size;
		ret = ret ? ret : print_subtree(&s, r, mark);
		/* what began while this chain was still open belongs inside it */
		if (!ret && o->interlace && !kft_spooltree_get(st, r, &n, NULL, NULL, err))
			ret = interlace_before(&s, n.dur_ns < 0 ? INT64_MAX
							       : n.entry_ns + n.dur_ns);
	}
	if (!ret)
		kft_kd_tree_end(&s.c);
	free(s.c.open_end);
	free(s.c.lb.s);
	return ret;
}

/* A call of the function asked for. */
struct hit {
	int64_t dur_ns;
	uint32_t row;
	uint64_t place;
};

/* Whether a ranks before b: slower, or as slow and an earlier row. */
static bool ranks_before(const struct hit *a, const struct hit *b)
{
	if (a->dur_ns != b->dur_ns)
		return a->dur_ns > b->dur_ns;
	return a->row < b->row;
}

/* The best n so far are kept as a heap whose top is the worst of them. */
static bool ranks_after(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return ranks_before(b, a);
}

static int cmp_rank(const void *a, const void *b)
{
	return ranks_before(a, b) ? -1 : ranks_before(b, a) ? 1 : 0;
}

/* Every finished call of func, the n slowest kept, best first. */
static int find_slowest(struct kft_spooltree *st, const char *func, size_t n, struct hit **top,
			size_t *ntop, struct kft_error *err)
{
	size_t cap = 0;

	*top = NULL;
	*ntop = 0;
	for (uint64_t p = 0; p < st->ncalls; p++) {
		struct kft_node node;
		const struct kft_func *f;
		struct hit h = { .place = p };

		if (kft_spooltree_get(st, p, &node, NULL, &h.row, err))
			return -1;
		f = &st->t.funcs[node.func];
		if (node.dur_ns < 0 || (strcmp(f->name, func) && strcmp(f->base_name, func)))
			continue;
		h.dur_ns = node.dur_ns;
		if (*ntop < n) {
			if (kft_grow((void **)top, *ntop, &cap, sizeof(**top), 64))
				return kft_error_set(err, "out of memory");
			(*top)[*ntop] = h;
			kft_heap_up(*top, sizeof(**top), (*ntop)++, ranks_after, NULL);
		} else if (ranks_before(&h, &(*top)[0])) {
			(*top)[0] = h;
			kft_heap_down(*top, *ntop, sizeof(**top), 0, ranks_after, NULL);
		}
	}
	if (*ntop)
		qsort(*top, *ntop, sizeof(**top), cmp_rank);
	return 0;
}

int kft_view_kd_slowest_spool(FILE *out, struct kft_spooltree *st, const struct kft_kd_opts *o,
			      const char *func, long n, struct kft_error *err)
{
	struct kft_kd_opts all = *o;
	struct spool_ctx s = { .c = { .out = out, .t = &st->t, .o = &all }, .st = st, .err = err };
	struct kft_node node;
	struct hit *hits;
	size_t nhits;
	int ret;

	all.columns = KFT_KD_TREE_COLUMNS;
	all.interlace = false;
	s.c.notes_within_roots = true;
	ret = find_slowest(st, func, (size_t)n, &hits, &nhits, err);
	if (!ret && !nhits)
		ret = kft_error_set(err, "no finished call of '%s' in the trace", func);
	kft_kd_tree_columns(&s.c);
	for (size_t i = 0; i < nhits && !ret; i++) {
		ret = kft_spooltree_get(st, hits[i].place, &node, NULL, NULL, err);
		if (ret)
			break;
		fprintf(out, "%s#%zu: %s, %lld usec, entered at %lld usec, pid %s\n", i ? "\n" : "",
			i + 1, st->t.funcs[node.func].name, kft_kd_us(node.dur_ns),
			kft_kd_us(node.entry_ns), node.pid);
		kft_kd_tree_header(&s.c);
		ret = print_subtree(&s, hits[i].place, '|');
		kft_kd_tree_root_done(&s.c);
	}
	kft_kd_tree_end(&s.c);
	free(hits);
	free(s.c.lb.s);
	return ret;
}
