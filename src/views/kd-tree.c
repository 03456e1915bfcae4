// SPDX-License-Identifier: GPL-2.0-only
/*
 * kd's call trees (-c) from a tree in memory: text logs, --classic, and
 * traces whose threads were traced in the kernel too (kd-stream.c reads
 * the others straight from their files).
 */
#include <stdlib.h>
#include <string.h>

#include "kd-rows.h"

static void print_subtree(struct tree_ctx *c, uint32_t idx, unsigned int depth, char mark);

/* Other threads' and interrupts' chains that began before this entry. */
static void interlace_before(struct tree_ctx *c, int64_t entry_ns)
{
	const struct kft_calltree *t = c->t;

	while (c->next_root < t->nroots && t->nodes[t->roots[c->next_root]].entry_ns < entry_ns) {
		uint32_t r = t->roots[c->next_root++];
		char mark = kft_kd_root_mark(c->nmarks++);

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
		kft_kd_tree_row(c, &nodes[cur], depth, mark);
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

int kft_view_kd_tree(FILE *out, const struct kft_calltree *t, const struct kft_kd_opts *o,
		     struct kft_error *err)
{
	struct tree_ctx c = { .out = out, .t = t, .o = o };

	(void)err;
	kft_kd_tree_columns(&c);
	kft_kd_tree_header(&c);
	if (o->raw_order) {
		for (size_t i = 0; i < t->nnodes; i++)
			kft_kd_tree_row(&c, &t->nodes[i], t->nodes[i].depth, '|');
	} else {
		while (c.next_root < t->nroots) {
			uint32_t r = t->roots[c.next_root++];
			const struct kft_node *n = &t->nodes[r];
			char mark = o->interlace ? kft_kd_root_mark(c.nmarks++) : '|';

			print_subtree(&c, r, 0, mark);
			/* what began while this chain was still open belongs inside it */
			if (o->interlace)
				interlace_before(&c, n->dur_ns < 0 ? INT64_MAX : n->entry_ns + n->dur_ns);
		}
	}
	kft_kd_tree_end(&c);
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
	c.notes_within_roots = true;
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
	kft_kd_tree_columns(&c);
	for (size_t i = 0; i < nhits && (long)i < n; i++) {
		const struct kft_node *node = &t->nodes[hits[i]];

		fprintf(out, "%s#%zu: %s, %lld usec, entered at %lld usec, pid %s\n", i ? "\n" : "",
			i + 1, t->funcs[node->func].name, kft_kd_us(node->dur_ns), kft_kd_us(node->entry_ns),
			node->pid);
		kft_kd_tree_header(&c);
		print_subtree(&c, hits[i], 0, '|');
		kft_kd_tree_root_done(&c);
	}
	kft_kd_tree_end(&c);
	free(c.lb.s);
	free(hits);
	return 0;
}
