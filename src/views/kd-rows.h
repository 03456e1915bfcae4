/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rows of kd's call trees: the header, one row per call (entry,
 * duration, Local, pid, then the name indented by its depth), the same
 * whether the tree is kept on disk (kd-spool.c) or streamed (kd-stream.c).
 */
#ifndef KFT_VIEW_KD_ROWS_H
#define KFT_VIEW_KD_ROWS_H

#include <stdbool.h>
#include <stdio.h>

#include "../analysis/calltree.h"
#include "kd-lines.h"
#include "kd-notes.h"
#include "kd.h"

struct tree_ctx {
	FILE *out;
	const struct kft_calltree *t;
	const struct kft_kd_opts *o;
	bool col[4];		/* e t l p */
	size_t next_root;	/* roots before it are printed */
	unsigned int nmarks;	/* roots given a mark so far */
	struct kft_linebuf lb;
	/* o->notes: the current root's thread's, and the ends of its calls
	 * open (by depth) where the next note goes */
	struct kft_kd_note_thread *nt;
	bool notes_within_roots;	/* --slowest: a root's notes are those made
					 * while it ran, none before or after */
	int64_t root_end;
	char root_mark;
	int64_t *open_end;
	size_t nopen, opencap;
};

/* The mark of the n-th chain that -i sets apart ('|' first). */
char kft_kd_root_mark(unsigned int n);

/* Which columns -f asked for (e t l p). */
void kft_kd_tree_columns(struct tree_ctx *c);
void kft_kd_tree_header(struct tree_ctx *c);
/* Node n at depth, its indentation drawn with mark. */
void kft_kd_tree_row(struct tree_ctx *c, const struct kft_node *n, unsigned int depth, char mark);
/* After a root's last row: its notes made after that row. */
void kft_kd_tree_root_done(struct tree_ctx *c);
/* After the last row: the notes not shown yet, and c's memory for them. */
void kft_kd_tree_end(struct tree_ctx *c);

#endif
