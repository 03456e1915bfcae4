/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A call tree kept on disk, for rows that nest by caller name (text logs,
 * and kd 1.1's nesting of a trace: --classic), where a subtree's rows need
 * not be neighbours in the log (a trace's own trees are streamed:
 * views/kd-stream.c). The calls are written to a temporary file
 * in depth-first order, each with its depth, subtree size and Local, so
 * trees print by reading it in order. Built in two passes over the rows
 * (the first finds each row's parent, 8 bytes a row while it runs, then
 * 4: each row's place, kept for -r); memory otherwise grows with the
 * functions, the calls open at once and a fixed cache of file pages.
 */
#ifndef KFT_SPOOLTREE_H
#define KFT_SPOOLTREE_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/error.h"
#include "../format/text-log.h"
#include "calltree.h"

/* Where rows come from, as often as asked, each time after a rewind: a
 * text log, or a trace's calls as a log would show them (classic-rows.h). */
struct kft_text_source {
	/* the next row: 1, 0 at the end, -1 on an error */
	int (*next)(void *ctx, const struct kft_text_row **row, struct kft_error *err);
	int (*rewind)(void *ctx, struct kft_error *err);
	void *ctx;
};

/* A text log through its reader. */
struct kft_text_source kft_text_source_of_reader(struct kft_text_reader *r);

struct kft_spool_page;

struct kft_spooltree {
	struct kft_calltree t;	/* its functions and strings; no nodes */
	uint64_t ncalls;
	uint32_t *place;	/* row -> place in depth-first order (for -r) */
	size_t place_cap;
	bool classic;
	int fd, args_fd;
	uint64_t args_end;
	struct kft_spool_page **pages;
	char *args;		/* the last node's arguments */
	size_t args_cap;
};

/* The tree of a text log's rows, nested by caller name (text-nest.h);
 * stack-watch rows are left out. */
int kft_spooltree_build_text(struct kft_spooltree *st, const struct kft_text_source *src,
			     bool classic, struct kft_error *err);
/*
 * The call at place p (< ncalls) in depth-first order, into *n (depth in
 * n->depth; n->args valid until the next call), with the number of calls
 * in its subtree (itself included) and its row. -1 on a read error.
 */
int kft_spooltree_get(struct kft_spooltree *st, uint64_t p, struct kft_node *n, uint32_t *size,
		      uint32_t *row, struct kft_error *err);
/* Give back the rows' places (4 bytes a call), when -r is not asked. */
void kft_spooltree_drop_places(struct kft_spooltree *st);
void kft_spooltree_free(struct kft_spooltree *st);

#endif
