// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/bigarray.h"
#include "../common/grow.h"
#include "../common/tempfile.h"
#include "functable.h"
#include "spooltree.h"
#include "text-nest.h"

/* A call as a source gives it, nested already. */
struct kft_spool_call {
	int64_t entry_ns, dur_ns;	/* dur -1: unfinished */
	uint32_t func;			/* in the tree's functions */
	const char *caller, *pid;
	const char *args;		/* or NULL */
	bool irq;
	uint32_t parent, depth;		/* parent: an earlier call's number, or KFT_NONE */
	uint32_t tid;			/* the thread's (as a node's) */
};

/* Where calls come from, as often as asked, each time after a rewind,
 * numbered from 0; next names functions in ft (the tree's). */
struct kft_call_source {
	int (*next)(void *ctx, struct kft_functable *ft, struct kft_spool_call *c,
		    struct kft_error *err);
	int (*rewind)(void *ctx, struct kft_error *err);
	void *ctx;
};

/* A call as the spool file holds it. */
struct spool_rec {
	int64_t entry_ns, dur_ns, local_ns;
	uint64_t args;		/* offset + 1 in the arguments file; 0: none */
	uint32_t func, caller, pid;	/* caller and pid: indices in t.strings */
	uint32_t depth, size, row;
	uint8_t irq;
	uint8_t pad[3];
	uint32_t tid;
};

_Static_assert(sizeof(struct spool_rec) == 64, "spool records are 64 bytes");

/* The file is read and written through a direct-mapped cache of pages. */
#define PAGE_CALLS 1024
#define NPAGES 64

struct kft_spool_page {
	uint64_t page;
	bool dirty;
	struct spool_rec recs[PAGE_CALLS];
};

static int reader_next(void *r, const struct kft_text_row **row, struct kft_error *err)
{
	return kft_text_reader_next(r, row, err);
}

static int reader_rewind(void *r, struct kft_error *err)
{
	return kft_text_reader_rewind(r, err);
}

struct kft_text_source kft_text_source_of_reader(struct kft_text_reader *r)
{
	return (struct kft_text_source){ .next = reader_next, .rewind = reader_rewind, .ctx = r };
}

static int io_error(struct kft_error *err, const char *what)
{
	return kft_error_set(err, "the temporary file of a call tree: %s: %s", what,
			     errno ? strerror(errno) : "short transfer");
}

/* All of len bytes at off, in or out. */
static int page_io(int fd, void *buf, size_t len, uint64_t off, bool out)
{
	char *p = buf;

	while (len) {
		ssize_t n = out ? pwrite(fd, p, len, (off_t)off) : pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = 0;
			return -1;
		}
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static size_t page_bytes(const struct kft_spooltree *st, uint64_t page)
{
	uint64_t first = page * PAGE_CALLS, n = st->ncalls - first;

	return (size_t)(n < PAGE_CALLS ? n : PAGE_CALLS) * sizeof(struct spool_rec);
}

static struct spool_rec *rec_at(struct kft_spooltree *st, uint64_t p, bool dirty,
				struct kft_error *err)
{
	uint64_t page = p / PAGE_CALLS;
	struct kft_spool_page **slot = &st->pages[page % NPAGES], *pg = *slot;
	uint64_t off = page * PAGE_CALLS * sizeof(struct spool_rec);

	if (!pg || pg->page != page) {
		if (pg && pg->dirty &&
		    page_io(st->fd, pg->recs, page_bytes(st, pg->page),
			    pg->page * PAGE_CALLS * sizeof(struct spool_rec), true)) {
			io_error(err, "write");
			return NULL;
		}
		/* a slot gets its page on first use: a small tree needs few */
		if (!pg && !(pg = *slot = malloc(sizeof(*pg)))) {
			kft_error_set(err, "out of memory");
			return NULL;
		}
		pg->page = UINT64_MAX;
		pg->dirty = false;
		if (page_io(st->fd, pg->recs, page_bytes(st, page), off, false)) {
			io_error(err, "read");
			return NULL;
		}
		pg->page = page;
	}
	pg->dirty |= dirty;
	return &pg->recs[p % PAGE_CALLS];
}

/* Interned string s: its index in t.strings. */
static int intern(struct kft_functable *ft, const char *s, uint32_t *idx)
{
	return kft_functable_intern(ft, s) && kft_strmap_get(&ft->callers, s, idx) ? 0 : -1;
}

/* First pass: each call's parent, into *parent. */
static int find_parents(struct kft_spooltree *st, struct kft_functable *ft,
			const struct kft_call_source *src, uint32_t **parent, size_t *cap,
			struct kft_error *err)
{
	struct kft_spool_call c;
	int got;

	while ((got = src->next(src->ctx, ft, &c, err)) > 0) {
		if (st->ncalls >= UINT32_MAX - 1) {
			got = kft_error_set(err, "more than %u calls: too many to nest in one tree",
					    UINT32_MAX - 2);
			break;
		}
		if (kft_big_grow((void **)parent, st->ncalls, cap, sizeof(**parent))) {
			got = kft_error_set(err, "out of memory");
			break;
		}
		(*parent)[st->ncalls++] = c.parent;
	}
	return got;
}

/*
 * Places in depth-first order from parents: subtree sizes bottom up (a
 * parent is an earlier row), then each call placed after its parent and
 * its earlier siblings' subtrees. parent[] becomes the places; next[] is
 * room to work in.
 */
static void place_calls(uint32_t *parent, uint32_t *next, uint64_t n)
{
	uint32_t next_root = 0;

	for (uint64_t i = 0; i < n; i++)
		next[i] = 1;
	for (uint64_t i = n; i-- > 0;)
		if (parent[i] != KFT_NONE)
			next[parent[i]] += next[i];
	for (uint64_t i = 0; i < n; i++) {
		uint32_t size = next[i], at;

		if (parent[i] == KFT_NONE) {
			at = next_root;
			next_root += size;
		} else {
			at = next[parent[i]];
			next[parent[i]] += size;
		}
		parent[i] = at;
		next[i] = at + 1;
	}
}

/* Second pass: each call written at its place, with its depth. */
static int write_calls(struct kft_spooltree *st, struct kft_functable *ft,
		       const struct kft_call_source *src, struct kft_error *err)
{
	struct kft_spool_call c;
	uint64_t i = 0;
	int got;

	while ((got = src->next(src->ctx, ft, &c, err)) > 0) {
		struct spool_rec *rec;
		uint32_t caller_idx, pid_idx;

		if (i == st->ncalls) {
			got = kft_error_set(err, "the input changed while it was read");
			break;
		}
		if (intern(ft, c.caller, &caller_idx) || intern(ft, c.pid, &pid_idx)) {
			got = kft_error_set(err, "out of memory");
			break;
		}
		rec = rec_at(st, st->place[i], true, err);
		if (!rec) {
			got = -1;
			break;
		}
		memset(rec, 0, sizeof(*rec));
		rec->entry_ns = c.entry_ns;
		rec->dur_ns = c.dur_ns;
		rec->func = c.func;
		rec->caller = caller_idx;
		rec->pid = pid_idx;
		rec->depth = c.depth;
		rec->row = (uint32_t)i;
		rec->irq = c.irq;
		rec->tid = c.tid;
		if (c.args) {
			size_t len = strlen(c.args) + 1;

			if (page_io(st->args_fd, (void *)c.args, len, st->args_end, true)) {
				got = io_error(err, "write");
				break;
			}
			rec->args = st->args_end + 1;
			st->args_end += len;
		}
		i++;
	}
	if (!got && i != st->ncalls)
		got = kft_error_set(err, "the input changed while it was read");
	return got;
}

struct open_call {
	uint64_t place;
	int64_t dur_ns, children_ns;
};

/* A call's subtree size and Local once all its children are known (end:
 * the place after its subtree), Local as kft_node.local_ns says (with
 * classic, kd 1.1's). */
static int close_call(struct kft_spooltree *st, const struct open_call *c, uint64_t end,
		      struct kft_error *err)
{
	struct spool_rec *rec = rec_at(st, c->place, true, err);
	int64_t local = c->dur_ns - c->children_ns;

	if (!rec)
		return -1;
	rec->size = (uint32_t)(end - c->place);
	if (!st->classic && c->dur_ns < 0)
		local = -1;
	else if (local < 0)
		local = 0;
	rec->local_ns = local;
	return 0;
}

/* Third pass, over the file in order: every call's size and Local. */
static int write_locals(struct kft_spooltree *st, struct kft_error *err)
{
	struct open_call *open = NULL;
	size_t nopen = 0, cap = 0;
	int ret = 0;

	for (uint64_t p = 0; p < st->ncalls && !ret; p++) {
		const struct spool_rec *rec = rec_at(st, p, false, err);
		struct open_call c = { p, 0, 0 };
		uint32_t depth;

		if (!rec) {
			ret = -1;
			break;
		}
		/* closing calls may move the page: copy first */
		c.dur_ns = rec->dur_ns;
		depth = rec->depth;

		while (nopen > depth && !ret)
			ret = close_call(st, &open[--nopen], p, err);
		if (ret)
			break;
		if (nopen && (st->classic || c.dur_ns > 0))
			open[nopen - 1].children_ns += c.dur_ns;
		if (kft_grow((void **)&open, nopen, &cap, sizeof(*open), 64)) {
			ret = kft_error_set(err, "out of memory");
			break;
		}
		open[nopen++] = c;
	}
	while (nopen && !ret)
		ret = close_call(st, &open[--nopen], st->ncalls, err);
	free(open);
	return ret;
}

/* The tree of src's calls. classic: kd 1.1's Locals (every child counts,
 * an unfinished call too), else as calltree.h's. */
static int build(struct kft_spooltree *st, const struct kft_call_source *src, bool classic,
		 struct kft_error *err)
{
	struct kft_functable ft;
	uint32_t *next = NULL;
	size_t ncap = 0;
	int ret = -1;

	memset(st, 0, sizeof(*st));
	st->classic = classic;
	st->fd = st->args_fd = -1;
	kft_functable_init(&ft, &st->t, NULL);
	if (src->rewind(src->ctx, err) || find_parents(st, &ft, src, &st->place, &st->place_cap, err))
		goto out;
	st->pages = calloc(NPAGES, sizeof(*st->pages));
	if (kft_big_grow((void **)&next, st->ncalls, &ncap, sizeof(*next)) || !st->pages) {
		kft_error_set(err, "out of memory");
		goto out;
	}
	place_calls(st->place, next, st->ncalls);
	kft_big_free(next, ncap, sizeof(*next));
	next = NULL;
	st->fd = kft_temp_file(err);
	st->args_fd = st->fd < 0 ? -1 : kft_temp_file(err);
	if (st->args_fd < 0)
		goto out;
	if (ftruncate(st->fd, (off_t)(st->ncalls * sizeof(struct spool_rec)))) {
		io_error(err, "size");
		goto out;
	}
	if (src->rewind(src->ctx, err) || write_calls(st, &ft, src, err) ||
	    write_locals(st, err))
		goto out;
	if (kft_functable_finish(&ft)) {
		kft_error_set(err, "out of memory");
		goto out;
	}
	ret = 0;
out:
	kft_big_free(next, ncap, sizeof(*next));
	kft_functable_done(&ft);
	if (ret)
		kft_spooltree_free(st);
	return ret;
}

/* ---- a text log's rows as calls, nested by caller name ---------------- */

struct text_calls {
	const struct kft_text_source *rows;
	struct kft_text_nest nest;
	uint32_t row;
	char caller[1024];
};

static int text_rewind(void *ctx, struct kft_error *err)
{
	struct text_calls *tc = ctx;
	bool classic = tc->nest.classic;

	kft_text_nest_free(&tc->nest);
	tc->nest.classic = classic;
	tc->row = 0;
	return tc->rows->rewind(tc->rows->ctx, err);
}

static int text_next(void *ctx, struct kft_functable *ft, struct kft_spool_call *c,
		     struct kft_error *err)
{
	struct text_calls *tc = ctx;
	const struct kft_text_row *r;
	struct kft_nest_row nr;
	int got;

	do {
		got = tc->rows->next(tc->rows->ctx, &r, err);
		if (got <= 0)
			return got;
	} while (r->delta_ns == -2);	/* a stack-watch row is no call */
	nr.entry_ns = r->entry_ns;
	nr.dur_ns = r->delta_ns < 0 ? -1 : r->delta_ns;
	nr.unit_ns = r->unit_ns;
	nr.tid = r->tid;
	nr.coroutine = r->coroutine;
	nr.irq = r->irq;
	kft_caller_name(r->caller, tc->caller, sizeof(tc->caller));
	if (kft_functable_func(ft, r->func, r->func, NULL, &nr.func))
		return kft_error_set(err, "out of memory");
	if (!kft_strmap_get(&ft->by_key, tc->caller, &nr.caller))
		nr.caller = KFT_NONE;
	if (kft_text_nest_add(&tc->nest, tc->row++, &nr, &c->parent, &c->depth))
		return kft_error_set(err, "out of memory");
	c->entry_ns = nr.entry_ns;
	c->dur_ns = nr.dur_ns;
	c->func = nr.func;
	c->caller = tc->caller;
	c->pid = r->pid;
	c->args = r->args;
	c->irq = r->irq;
	c->tid = (uint32_t)r->tid;
	return 1;
}

int kft_spooltree_build_text(struct kft_spooltree *st, const struct kft_text_source *src,
			     bool classic, struct kft_error *err)
{
	struct text_calls tc = { .rows = src, .nest = { .classic = classic } };
	struct kft_call_source calls = { .next = text_next, .rewind = text_rewind, .ctx = &tc };
	int ret = build(st, &calls, classic, err);

	kft_text_nest_free(&tc.nest);
	return ret;
}

/* The arguments saved at off (an offset + 1) into st->args. */
static const char *args_at(struct kft_spooltree *st, uint64_t off, struct kft_error *err)
{
	size_t have = 0;

	off--;
	for (;;) {
		ssize_t n;

		if (kft_grow((void **)&st->args, have + 256, &st->args_cap, 1, 512)) {
			kft_error_set(err, "out of memory");
			return NULL;
		}
		n = pread(st->args_fd, st->args + have, 256, (off_t)(off + have));
		if (n <= 0) {
			io_error(err, "read");
			return NULL;
		}
		if (memchr(st->args + have, '\0', (size_t)n))
			return st->args;
		have += (size_t)n;
	}
}

int kft_spooltree_get(struct kft_spooltree *st, uint64_t p, struct kft_node *n, uint32_t *size,
		      uint32_t *row, struct kft_error *err)
{
	const struct spool_rec *rec = rec_at(st, p, false, err);

	if (!rec)
		return -1;
	memset(n, 0, sizeof(*n));
	n->entry_ns = rec->entry_ns;
	n->dur_ns = rec->dur_ns;
	n->local_ns = rec->local_ns;
	n->func = rec->func;
	n->depth = rec->depth;
	n->irq = rec->irq;
	n->tid = rec->tid;
	n->caller = st->t.strings[rec->caller];
	snprintf(n->pid, sizeof(n->pid), "%s", st->t.strings[rec->pid]);
	if (size)
		*size = rec->size;
	if (row)
		*row = rec->row;
	if (rec->args && !(n->args = args_at(st, rec->args, err)))
		return -1;
	return 0;
}

void kft_spooltree_drop_places(struct kft_spooltree *st)
{
	kft_big_free(st->place, st->place_cap, sizeof(*st->place));
	st->place = NULL;
	st->place_cap = 0;
}

void kft_spooltree_free(struct kft_spooltree *st)
{
	kft_calltree_free(&st->t);
	kft_spooltree_drop_places(st);
	for (size_t i = 0; st->pages && i < NPAGES; i++)
		free(st->pages[i]);
	free(st->pages);
	free(st->args);
	if (st->fd >= 0)
		close(st->fd);
	if (st->args_fd >= 0)
		close(st->args_fd);
	memset(st, 0, sizeof(*st));
	st->fd = st->args_fd = -1;
}
