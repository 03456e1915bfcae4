// SPDX-License-Identifier: GPL-2.0-only
/*
 * A flame graph as one self-contained SVG: each distinct call stack a
 * box as wide as the time its calls took (real durations, no sampling),
 * callers below callees, frames of a level in name order (flame-svg.h
 * draws the boxes and the script that zooms and searches).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "flame-svg.h"
#include "flame.h"
#include "stack-tree.h"

struct layout {
	const struct stack_tree *st;
	uint32_t *kids;		/* children of each node, in name order */
	size_t *first;		/* kids[first[n] .. first[n + 1]) */
	uint32_t depth_max;
	double px_per_ns;
	FILE *out;
	uint64_t drawn;
};

static const struct layout *sort_layout;

static int by_name(const void *a, const void *b)
{
	const struct stack_tree *st = sort_layout->st;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return strcmp(st->x.names.funcs[st->nodes[x].func].name,
		      st->x.names.funcs[st->nodes[y].func].name);
}

/* Children lists, node 0 standing for the roots. */
static int link_children(struct layout *l)
{
	const struct stack_tree *st = l->st;
	size_t n = st->nnodes ? st->nnodes : 1, *fill;

	l->first = calloc(n + 1, sizeof(*l->first));
	l->kids = malloc(n * sizeof(*l->kids));
	fill = calloc(n + 1, sizeof(*fill));
	if (!l->first || !l->kids || !fill) {
		free(fill);
		return -1;
	}
	for (size_t k = 1; k < st->nnodes; k++)
		l->first[st->nodes[k].parent + 1]++;
	for (size_t k = 0; k < n; k++)
		l->first[k + 1] += l->first[k];
	for (size_t k = 1; k < st->nnodes; k++) {
		uint32_t p = st->nodes[k].parent;

		l->kids[l->first[p] + fill[p]++] = (uint32_t)k;
	}
	sort_layout = l;
	for (size_t k = 0; k < n; k++)
		qsort(l->kids + l->first[k], l->first[k + 1] - l->first[k], sizeof(*l->kids),
		      by_name);
	free(fill);
	return 0;
}




/* One box: node n at x (from the left margin), depth d. */
static void box(struct layout *l, uint32_t n, double x, uint32_t d, uint64_t total)
{
	const struct stack_tree *st = l->st;
	const struct stack_node *node = &st->nodes[n];
	double w = (double)node->ns * l->px_per_ns, y = TOP + (double)(l->depth_max - d) * FRAME;

	kft_flame_svg_box(l->out, st->x.names.funcs[node->func].name, "", node->ns, total, x, y, w);
	l->drawn++;
}

/* Every box wide enough, depth first without recursion (stacks may be
 * 50,000 calls deep). */
struct pending {
	uint32_t node;
	uint32_t depth;
	double x;
};

/* Push the children of parent (node 0: the roots), the first on top. */
static int push_children(struct layout *l, uint32_t parent, uint32_t depth, double x,
			 struct pending **todo, size_t *n, size_t *cap)
{
	const struct stack_tree *st = l->st;

	for (size_t k = l->first[parent]; k < l->first[parent + 1]; k++)
		x += (double)st->nodes[l->kids[k]].ns * l->px_per_ns;
	for (size_t k = l->first[parent + 1]; k-- > l->first[parent];) {
		x -= (double)st->nodes[l->kids[k]].ns * l->px_per_ns;
		if (kft_grow((void **)todo, *n, cap, sizeof(**todo), 256))
			return -1;
		(*todo)[(*n)++] = (struct pending){ l->kids[k], depth, x };
	}
	return 0;
}

static int draw_all(struct layout *l, uint64_t total)
{
	struct pending *todo = NULL;
	size_t n = 0, cap = 0;
	int ret = push_children(l, 0, 0, 0, &todo, &n, &cap);

	while (!ret && n) {
		struct pending p = todo[--n];

		if ((double)l->st->nodes[p.node].ns * l->px_per_ns < MIN_PX)
			continue;	/* and what it called, narrower still */
		box(l, p.node, p.x, p.depth, total);
		ret = push_children(l, p.node, p.depth + 1, p.x, &todo, &n, &cap);
	}
	free(todo);
	return ret;
}


int kft_view_flame(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		   const struct kft_export_opts *o, const char *title,
		   struct kft_export_result *res, struct kft_error *err)
{
	struct kft_export_opts total = *o;
	struct stack_tree st;
	struct layout l = { .st = &st, .out = out };
	uint64_t sum = 0;
	uint32_t *depth = NULL;
	double height;
	int ret;

	total.self = false;	/* a box is as wide as its calls' whole time */
	ret = kft_stack_tree_build(&st, tr, sz, &total, res, err);
	if (!ret && link_children(&l))
		ret = kft_error_set(err, "out of memory");
	if (ret)
		goto out;
	for (size_t k = l.first[0]; k < l.first[1]; k++)
		sum += st.nodes[l.kids[k]].ns;
	/* a node comes after its parent: depths in one pass */
	depth = calloc(st.nnodes ? st.nnodes : 1, sizeof(*depth));
	if (!depth) {
		ret = kft_error_set(err, "out of memory");
		goto out;
	}
	for (size_t n = 1; n < st.nnodes; n++) {
		depth[n] = st.nodes[n].parent ? depth[st.nodes[n].parent] + 1 : 0;
		if (depth[n] > l.depth_max)
			l.depth_max = depth[n];
	}
	l.px_per_ns = sum ? (WIDTH - 20) / (double)sum : 0;
	height = TOP + (double)(l.depth_max + 1) * FRAME + 10;
	kft_flame_svg_begin(out, height, title, sum);
	if (draw_all(&l, sum)) {
		ret = kft_error_set(err, "out of memory");
		goto out;
	}
	kft_flame_svg_end(out);
	res->written = l.drawn;
	if (ferror(out))
		ret = kft_error_set(err, "write error");
out:
	free(depth);
	free(l.kids);
	free(l.first);
	kft_stack_tree_free(&st);
	return ret;
}
