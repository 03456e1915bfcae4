// SPDX-License-Identifier: GPL-2.0-only
/*
 * kd's layouts: titles, widths and column order as kd 1.1 printed them,
 * so that old reports and new ones compare line by line.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kd.h"

/* usec, rounded down as kd's integer arithmetic did */
static long long us(int64_t ns)
{
	return ns >= 0 ? ns / 1000 : -((-ns + 999) / 1000);
}

static long long floordiv(long long a, long long b)
{
	long long q = a / b;

	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* ---- summary ---------------------------------------------------------- */

struct column {
	char letter;
	const char *title;
	int width;
	bool left;
};

static const struct column columns[] = {
	{ 'F', "Function", 35, true },	{ 'c', "Count", 5, false },
	{ 't', "Time", 8, false },	{ 'a', "Average", 8, false },
	{ 'r', "Range", 12, false },	{ 's', "Sub-time", 8, false },
	{ 'l', "Local", 8, false },	{ 'm', "Max-sub", 35, false },
	{ 'n', "Ms count", 8, false },	{ 'u', "Sub list", 20, true },
	{ 'N', "Min", 8, false },	{ 'X', "Max", 8, false },
	{ 'D', "Stddev", 8, false },	{ 'M', "Median", 8, false },
	{ 'P', "P95", 8, false },	{ 'Q', "P99", 8, false },
	{ 'U', "Unfinished", 10, false },
};

static const struct column *column_of(char letter)
{
	for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
		if (columns[i].letter == letter)
			return &columns[i];
	return NULL;
}

struct summary_ctx {
	const struct kft_calltree *t;
	const struct kft_funcstats *fs;
	const struct kft_kd_opts *o;
};

static const char *func_name(const struct summary_ctx *c, uint32_t f)
{
	return c->o->classic ? c->t->funcs[f].base_name : c->t->funcs[f].name;
}

static uint64_t finished(const struct kft_func_stat *s)
{
	return s->count - s->unfinished;
}

/* A numeric column's value; false when it has none to show. */
static bool value_of(const struct summary_ctx *c, const struct kft_func_stat *s, char letter,
		     long long *v)
{
	switch (letter) {
	case 'c': *v = (long long)s->count; return true;
	case 't': *v = us(s->time_ns); return true;
	case 'a':
		if (c->fs->classic) {
			*v = s->time_ns == -1000 ? -1 : floordiv(us(s->time_ns), (long long)s->count);
			return true;
		}
		if (!finished(s))
			return false;
		*v = us(s->sum_ns / (int64_t)finished(s));
		return true;
	case 's': *v = us(s->sub_ns); return true;
	case 'l': *v = us(s->local_ns); return true;
	case 'n': *v = (long long)s->max_sub_count; return true;
	case 'N': *v = us(s->min_ns); return finished(s) || c->fs->classic;
	case 'X': *v = us(s->max_ns); return finished(s) || c->fs->classic;
	case 'D': *v = us((int64_t)(s->stddev_ns + 0.5)); return finished(s) && !c->fs->classic;
	case 'M': *v = us(s->p50_ns); return finished(s) && !c->fs->classic;
	case 'P': *v = us(s->p95_ns); return finished(s) && !c->fs->classic;
	case 'Q': *v = us(s->p99_ns); return finished(s) && !c->fs->classic;
	case 'U': *v = (long long)s->unfinished; return true;
	}
	return false;
}

static const struct summary_ctx *sort_ctx;

static int cmp_stats(const void *a, const void *b)
{
	const struct summary_ctx *c = sort_ctx;
	const struct kft_func_stat *x = *(const struct kft_func_stat *const *)a;
	const struct kft_func_stat *y = *(const struct kft_func_stat *const *)b;
	int r;

	if (c->o->sort == 'F') {
		r = strcmp(func_name(c, x->func), func_name(c, y->func));
	} else {
		long long vx = LLONG_MIN, vy = LLONG_MIN;

		value_of(c, x, c->o->sort, &vx);
		value_of(c, y, c->o->sort, &vy);
		r = vx < vy ? -1 : vx > vy;
	}
	if (!c->o->ascending)
		r = -r;
	/* ties: by name, so that the order is stable */
	return r ? r : strcmp(func_name(c, x->func), func_name(c, y->func));
}

/* Print one line with trailing blanks cut. */
static void put_line(FILE *out, char *line)
{
	size_t n = strlen(line);

	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(out, "%s\n", line);
}

struct linebuf {
	char *s;
	size_t len, cap;
};

static void lb_add(struct linebuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void lb_add(struct linebuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		b->cap = (b->cap + (size_t)n + 256) * 2;
		b->s = realloc(b->s, b->cap);	/* checked by the caller via lb_ok */
		if (!b->s) {
			b->len = b->cap = 0;
			return;
		}
	}
}

static void summary_cell(struct linebuf *lb, const struct summary_ctx *c,
			 const struct kft_func_stat *s, const struct column *col)
{
	long long v;

	switch (col->letter) {
	case 'F':
		lb_add(lb, "%-35s", func_name(c, s->func));
		return;
	case 'r':
		if (c->fs->classic || (finished(s) && s->min_ns != s->max_ns)) {
			char range[64];

			snprintf(range, sizeof(range), "(%lld-%lld)", us(s->min_ns), us(s->max_ns));
			lb_add(lb, "%12s", range);
		} else {
			lb_add(lb, "%12s", "");
		}
		return;
	case 'm':
		lb_add(lb, "%35s", s->max_sub == KFT_NONE ? "" : func_name(c, s->max_sub));
		return;
	case 'u':
		lb_add(lb, "[");
		for (size_t i = 0; i < s->nchildren; i++)
			lb_add(lb, "%s'%s'", i ? ", " : "", func_name(c, s->children[i].func));
		lb_add(lb, "]");
		return;
	}
	if (value_of(c, s, col->letter, &v))
		lb_add(lb, "%*lld", col->width, v);
	else
		lb_add(lb, "%*s", col->width, "-");
}

int kft_view_kd_summary(FILE *out, const struct kft_calltree *t, const struct kft_funcstats *fs,
			const struct kft_kd_opts *o, struct kft_error *err)
{
	struct summary_ctx c = { t, fs, o };
	const char *letters = o->columns ? o->columns : "Fctal";
	const struct kft_func_stat **rows;
	const struct column *cols[64];
	size_t ncols = 0, nrows = 0;
	struct linebuf lb = { 0 };
	long shown = 0;

	for (const char *p = letters; *p && ncols < 64; p++) {
		const struct column *col = column_of(*p);

		if (col)
			cols[ncols++] = col;
		else
			fprintf(stderr, "Invalid column id: %c\n", *p);
	}
	rows = malloc((fs->nfuncs ? fs->nfuncs : 1) * sizeof(*rows));
	if (!rows)
		return kft_error_set(err, "out of memory");
	for (size_t f = 0; f < fs->nfuncs; f++)
		if (fs->funcs[f].count && us(fs->funcs[f].time_ns) >= o->min_time_us)
			rows[nrows++] = &fs->funcs[f];
	sort_ctx = &c;
	qsort(rows, nrows, sizeof(*rows), cmp_stats);
	for (int pass = 0; pass < 2; pass++) {
		lb.len = 0;
		for (size_t i = 0; i < ncols; i++) {
			if (pass == 0)
				lb_add(&lb, "%s%-*s", i ? " " : "", cols[i]->width, cols[i]->title);
			else
				lb_add(&lb, "%s%.*s", i ? " " : "", cols[i]->width,
				       "------------------------------------------------------------");
		}
		if (!lb.s)
			goto oom;
		put_line(out, lb.s);
	}
	for (size_t r = 0; r < nrows && (o->limit < 0 || shown < o->limit); r++, shown++) {
		lb.len = 0;
		for (size_t i = 0; i < ncols; i++) {
			if (i)
				lb_add(&lb, " ");
			summary_cell(&lb, &c, rows[r], cols[i]);
		}
		if (!lb.s)
			goto oom;
		put_line(out, lb.s);
	}
	free(lb.s);
	free(rows);
	return 0;
oom:
	free(rows);
	return kft_error_set(err, "out of memory");
}

/* ---- call trees ------------------------------------------------------- */

static const char root_marks[] = "|!@[#;($/{%]*)&:\\}";

struct tree_ctx {
	FILE *out;
	const struct kft_calltree *t;
	const struct kft_kd_opts *o;
	bool col[4];		/* e t l p */
	size_t next_root;	/* roots before it are printed */
	unsigned int nmarks;	/* roots given a mark so far */
	struct linebuf lb;
};

static void tree_header(struct tree_ctx *c)
{
	static const char *titles[] = { " Entry     ", " Duration  ", " Local     ", "  Pid   " };
	static const char *dashes[] = { "---------- ", "---------- ", "---------- ", "------- " };

	for (int pass = 0; pass < 2; pass++) {
		c->lb.len = 0;
		for (int i = 0; i < 4; i++)
			if (c->col[i])
				lb_add(&c->lb, "%s", pass ? dashes[i] : titles[i]);
		lb_add(&c->lb, "%s", pass ? "---------------------------------" : " Trace ");
		if (c->lb.s)
			put_line(c->out, c->lb.s);
	}
}

static void tree_row(struct tree_ctx *c, const struct kft_node *n, unsigned int depth, char mark)
{
	const char *name = c->o->classic ? c->t->funcs[n->func].base_name : c->t->funcs[n->func].name;

	c->lb.len = 0;
	if (c->col[0])
		lb_add(&c->lb, "%10lld ", us(n->entry_ns));
	if (c->col[1])
		lb_add(&c->lb, "%10lld ", n->dur_ns < 0 ? -1LL : us(n->dur_ns));
	if (c->col[2]) {
		if (n->local_ns < 0 && !c->o->classic)
			lb_add(&c->lb, "%10s ", "-");
		else
			lb_add(&c->lb, "%10lld ", us(n->local_ns));
	}
	if (c->col[3])
		lb_add(&c->lb, "%7s ", n->pid);
	for (unsigned int d = 0; d < depth; d++)
		lb_add(&c->lb, "%c  ", mark);
	lb_add(&c->lb, "%s", name);
	if (n->args) {
		long pad = 3L * ((long)c->o->max_depth - (long)depth) +
			   ((long)c->o->max_funclen - (long)strlen(name));

		lb_add(&c->lb, "%*s%s", (int)(pad > 1 ? pad : 1), "", n->args);
	}
	if (c->lb.s)
		put_line(c->out, c->lb.s);
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
			i + 1, t->funcs[node->func].name, us(node->dur_ns), us(node->entry_ns),
			node->pid);
		tree_header(&c);
		print_subtree(&c, hits[i], 0, '|');
	}
	free(c.lb.s);
	free(hits);
	return 0;
}
