// SPDX-License-Identifier: GPL-2.0-only
/*
 * A flame graph as one self-contained SVG: each distinct call stack a
 * box as wide as the time its calls took (real durations, no sampling),
 * callers below callees, frames of a level in name order. A short script
 * in the file zooms on a click and highlights a search; each box says its
 * name, time and share when the pointer rests on it.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "flame.h"
#include "stack-tree.h"

#define WIDTH 1200.0
#define FRAME 16
#define TOP 40		/* title and buttons */
#define MIN_PX 0.1	/* narrower boxes are left out */

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

static void put_xml(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: putc(*s, out);
		}
	}
}

/* A warm color of its own for each name. */
static void color_of(const char *name, unsigned int rgb[3])
{
	uint32_t h = 2166136261u;

	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	rgb[0] = 200 + h % 55;
	rgb[1] = 80 + (h >> 8) % 150;
	rgb[2] = (h >> 16) % 60;
}

static void put_time(FILE *out, uint64_t ns)
{
	if (ns >= 10000000)
		fprintf(out, "%.1f ms", ns / 1e6);
	else if (ns >= 10000)
		fprintf(out, "%.1f us", ns / 1e3);
	else
		fprintf(out, "%" PRIu64 " ns", ns);
}

/* One box: node n at x (from the left margin), depth d. */
static void box(struct layout *l, uint32_t n, double x, uint32_t d, uint64_t total)
{
	const struct stack_tree *st = l->st;
	const struct stack_node *node = &st->nodes[n];
	const char *name = st->x.names.funcs[node->func].name;
	double w = (double)node->ns * l->px_per_ns, y = TOP + (double)(l->depth_max - d) * FRAME;
	unsigned int rgb[3];

	color_of(name, rgb);
	fprintf(l->out, "<g class=\"f\" data-x=\"%.2f\" data-w=\"%.2f\"><title>", x, w);
	put_xml(l->out, name);
	fputs(" (", l->out);
	put_time(l->out, node->ns);
	fprintf(l->out, ", %.2f%%)</title><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" "
			"fill=\"rgb(%u,%u,%u)\" rx=\"2\"/><text x=\"%.2f\" y=\"%.0f\">",
		total ? 100.0 * (double)node->ns / (double)total : 0.0, x + 10, y, w, FRAME - 1,
		rgb[0], rgb[1], rgb[2], x + 13, y + FRAME - 4);
	put_xml(l->out, name);
	fputs("</text></g>\n", l->out);
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

/* Zoom on a click (the box's stack fills the width), search on "Search",
 * names clipped to their box; a link's ?s=REGEX searches and ?f=NAME
 * zooms on the widest box of that function as the page opens. */
static const char script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"var W = %.0f, frames = document.getElementsByClassName('f');\n"
	"function fit(g, x, w) {\n"
	"  var r = g.getElementsByTagName('rect')[0], t = g.getElementsByTagName('text')[0];\n"
	"  var name = g.getElementsByTagName('title')[0].textContent.replace(/ \\(.*$/, '');\n"
	"  r.setAttribute('x', x); r.setAttribute('width', Math.max(w, 0));\n"
	"  t.setAttribute('x', x + 3);\n"
	"  var n = Math.floor((w - 6) / 7);\n"
	"  t.textContent = n >= name.length ? name : n > 2 ? name.slice(0, n - 2) + '..' : '';\n"
	"}\n"
	"function zoom(x0, w0, y0) {\n"
	"  for (var i = 0; i < frames.length; i++) {\n"
	"    var g = frames[i], x = +g.dataset.x, w = +g.dataset.w;\n"
	"    var y = +g.getElementsByTagName('rect')[0].getAttribute('y');\n"
	/* callers below (on its width), what it called above (inside it);
	 * positions are rounded to 0.01 */
	"    var inside = (y > y0 && x + w > x0 + 0.02 && x < x0 + w0 - 0.02) ||\n"
	"                 (x >= x0 - 0.02 && x + w <= x0 + w0 + 0.02);\n"
	"    g.style.display = inside ? '' : 'none';\n"
	"    if (inside) fit(g, Math.max(0, (x - x0) * W / w0) + 10, Math.min(w, w0) * W / w0);\n"
	"  }\n"
	"}\n"
	"for (var i = 0; i < frames.length; i++) {\n"
	"  fit(frames[i], +frames[i].dataset.x + 10, +frames[i].dataset.w);\n"
	"  frames[i].onclick = function () {\n"
	"    zoom(+this.dataset.x, +this.dataset.w, +this.getElementsByTagName('rect')[0].getAttribute('y'));\n"
	"  };\n"
	"}\n"
	"function search(re) {\n"
	"  re = new RegExp(re);\n"
	"  for (var i = 0; i < frames.length; i++) {\n"
	"    var r = frames[i].getElementsByTagName('rect')[0];\n"
	"    var name = frames[i].getElementsByTagName('title')[0].textContent.replace(/ \\(.*$/, '');\n"
	"    if (!r.dataset.fill) r.dataset.fill = r.getAttribute('fill');\n"
	"    r.setAttribute('fill', re.test(name) ? 'rgb(200,60,230)' : r.dataset.fill);\n"
	"  }\n"
	"}\n"
	"document.getElementById('reset').onclick = function () { zoom(0, W, 1e9); };\n"
	"document.getElementById('search').onclick = function () {\n"
	"  var re = prompt('Search (a regular expression)'); if (re !== null) search(re);\n"
	"};\n"
	/* a link can carry both: FILE.svg?s=REGEX&f=NAME */
	"var q = new URLSearchParams(location.search), wide = null;\n"
	"if (q.get('s')) search(q.get('s'));\n"
	"for (var i = 0; q.get('f') && i < frames.length; i++)\n"
	"  if (frames[i].getElementsByTagName('title')[0].textContent.replace(/ \\(.*$/, '') == q.get('f') &&\n"
	"      (!wide || +frames[i].dataset.w > +wide.dataset.w)) wide = frames[i];\n"
	"if (wide) wide.onclick();\n"
	"]]></script>\n";

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
	ret = stack_tree_build(&st, tr, sz, &total, res, err);
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
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		     "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		     "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"monospace\" "
		     "font-size=\"12\">\n"
		     "<rect width=\"100%%\" height=\"100%%\" fill=\"rgb(250,250,240)\"/>\n"
		     "<text x=\"%.0f\" y=\"20\" text-anchor=\"middle\" font-size=\"16\">",
		WIDTH, height, WIDTH, height, WIDTH / 2);
	put_xml(out, title);
	fputs(" (", out);
	put_time(out, sum);
	fputs(")</text>\n<text id=\"reset\" x=\"10\" y=\"20\" cursor=\"pointer\">Reset zoom</text>\n"
	      "<text id=\"search\" x=\"1130\" y=\"20\" cursor=\"pointer\">Search</text>\n",
	      out);
	if (draw_all(&l, sum)) {
		ret = kft_error_set(err, "out of memory");
		goto out;
	}
	fprintf(out, script, WIDTH - 20);
	fputs("</svg>\n", out);
	res->written = l.drawn;
	if (ferror(out))
		ret = kft_error_set(err, "write error");
out:
	free(depth);
	free(l.kids);
	free(l.first);
	stack_tree_free(&st);
	return ret;
}
