// SPDX-License-Identifier: GPL-2.0-only
/* kft diff: two traces side by side, per function and per call path. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/funcstats-trace.h"
#include "../common/addrmap.h"
#include "../common/grow.h"
#include "../common/strmap.h"
#include "diff.h"
#include "stack-tree.h"

/* paths: LOCAL is the path's own time, its calls' less its callees' */
/* FINISHED: calls that returned; a function with none has no time to show */
enum { CALLS, TOTAL, LOCAL, P99, FINISHED, NVALUES };

/* A function, or a call path, in either trace. */
struct row {
	uint32_t name;		/* functions: into names; paths: the function's */
	uint32_t parent;	/* paths: the caller's row, or UINT32_MAX */
	bool in[2];
	int64_t v[2][NVALUES];
};

struct table {
	struct row *rows;
	size_t n, cap;
};

struct differ {
	struct kft_strmap ids;		/* name -> index into names */
	char **names;
	size_t nnames, capnames;
	struct table funcs, paths;
	struct kft_addrmap path_at;	/* (caller row, name) -> path row */
};

static int name_id(struct differ *d, const char *name, uint32_t *id)
{
	if (kft_strmap_get(&d->ids, name, id))
		return 0;
	if (kft_grow((void **)&d->names, d->nnames, &d->capnames, sizeof(*d->names), 256))
		return -1;
	d->names[d->nnames] = strdup(name);
	if (!d->names[d->nnames] || kft_strmap_put(&d->ids, name, (uint32_t)d->nnames))
		return -1;
	*id = (uint32_t)d->nnames++;
	return 0;
}

static struct row *new_row(struct table *t, uint32_t name, uint32_t parent)
{
	if (kft_grow((void **)&t->rows, t->n, &t->cap, sizeof(*t->rows), 256))
		return NULL;
	memset(&t->rows[t->n], 0, sizeof(t->rows[t->n]));
	t->rows[t->n].name = name;
	t->rows[t->n].parent = parent;
	return &t->rows[t->n++];
}

/* Side side's functions into the function table (rows joined by name:
 * the function table's rows are numbered as the names). */
static int add_functions(struct differ *d, int side, const struct kft_trace *tr,
			 struct kft_symbolizer *sz, struct kft_error *err)
{
	struct kft_funcstats fs = { 0 };
	struct kft_calltree t;
	int ret = -1;

	if (kft_funcstats_from_trace(&fs, &t, tr, sz, true, err))
		return -1;
	for (size_t f = 0; f < fs.nfuncs; f++) {
		const struct kft_func_stat *s = &fs.funcs[f];
		uint32_t id;

		if (!s->count)
			continue;
		if (name_id(d, t.funcs[s->func].name, &id))
			goto oom;
		while (d->funcs.n <= id)
			if (!new_row(&d->funcs, (uint32_t)d->funcs.n, UINT32_MAX))
				goto oom;
		d->funcs.rows[id].in[side] = true;
		d->funcs.rows[id].v[side][CALLS] = (int64_t)s->count;
		d->funcs.rows[id].v[side][TOTAL] = s->time_ns;
		d->funcs.rows[id].v[side][LOCAL] = s->local_ns;
		d->funcs.rows[id].v[side][P99] = s->p99_ns;
		d->funcs.rows[id].v[side][FINISHED] = (int64_t)(s->count - s->unfinished);
	}
	ret = 0;
	goto out;
oom:
	kft_error_set(err, "out of memory");
out:
	kft_funcstats_free(&fs);
	kft_calltree_free(&t);
	return ret;
}

/* Side side's call stacks into the path table, joined by caller and name. */
static int add_paths(struct differ *d, int side, const struct kft_trace *tr,
		     struct kft_symbolizer *sz, struct kft_error *err)
{
	struct kft_export_opts o = { .self = false };
	struct kft_export_result res;
	struct stack_tree st;
	uint32_t *row_of = NULL;
	int ret = kft_stack_tree_build(&st, tr, sz, &o, &res, err);

	if (ret)
		goto out;
	ret = -1;
	row_of = malloc((st.nnodes ? st.nnodes : 1) * sizeof(*row_of));
	if (!row_of)
		goto oom;
	/* a node comes after its parent */
	for (size_t n = 1; n < st.nnodes; n++) {
		const struct stack_node *node = &st.nodes[n];
		uint32_t parent = node->parent ? row_of[node->parent] : UINT32_MAX, id, *slot;
		struct row *r;

		if (name_id(d, st.x.names.funcs[node->func].name, &id))
			goto oom;
		slot = kft_addrmap_slot(&d->path_at, parent, id);
		if (!slot)
			goto oom;
		if (*slot == KFT_ADDRMAP_NONE) {
			*slot = (uint32_t)d->paths.n;
			if (!new_row(&d->paths, id, parent))
				goto oom;
		}
		row_of[n] = *kft_addrmap_slot(&d->path_at, parent, id);
		r = &d->paths.rows[row_of[n]];
		r->in[side] = true;
		r->v[side][CALLS] += (int64_t)node->calls;
		r->v[side][TOTAL] += (int64_t)node->ns;
		r->v[side][FINISHED] += (int64_t)node->calls;
	}
	/* own times, once every path of this side is in (a callee's row
	 * comes after its caller's) */
	for (size_t k = 0; k < d->paths.n; k++)
		d->paths.rows[k].v[side][LOCAL] = d->paths.rows[k].v[side][TOTAL];
	for (size_t k = 0; k < d->paths.n; k++)
		if (d->paths.rows[k].parent != UINT32_MAX)
			d->paths.rows[d->paths.rows[k].parent].v[side][LOCAL] -=
				d->paths.rows[k].v[side][TOTAL];
	ret = 0;
	goto out;
oom:
	kft_error_set(err, "out of memory");
out:
	free(row_of);
	kft_stack_tree_free(&st);
	return ret;
}

static int64_t change(const struct row *r, int k)
{
	return r->v[1][k] - r->v[0][k];
}

static const struct table *sorting;
static int sort_key;

/* The largest change in the sort key's time first, then first met. */
static int by_change(const void *a, const void *b)
{
	const struct row *x = &sorting->rows[*(const uint32_t *)a];
	const struct row *y = &sorting->rows[*(const uint32_t *)b];
	int64_t cx = llabs(change(x, sort_key)), cy = llabs(change(y, sort_key));

	if (cx != cy)
		return cx < cy ? 1 : -1;
	return (*(const uint32_t *)a > *(const uint32_t *)b) - (*(const uint32_t *)a < *(const uint32_t *)b);
}

/* "+12.3%", "new", "gone" or "". */
static void put_share(FILE *out, const struct row *r, int k)
{
	char buf[16];

	if (!r->in[0])
		snprintf(buf, sizeof(buf), "new");
	else if (!r->in[1])
		snprintf(buf, sizeof(buf), "gone");
	else if (r->v[0][k] > 0)
		snprintf(buf, sizeof(buf), "%+.1f%%", 100.0 * (double)change(r, k) / (double)r->v[0][k]);
	else
		buf[0] = '\0';
	fprintf(out, " %8s", buf);
}

/* Side side's value k in usec; "-" where none of its calls finished. */
static void put_us(FILE *out, const struct row *r, int side, int k)
{
	if (r->in[side] && !r->v[side][FINISHED])
		fprintf(out, " %11s", "-");
	else
		fprintf(out, " %11.1f", (double)r->v[side][k] / 1000);
}

/* A path's names, outermost first; a deep one keeps its two ends. */
static void put_path(FILE *out, const struct differ *d, uint32_t r)
{
	uint32_t chain[64];
	size_t n = 0, depth = 0;

	for (uint32_t k = r; k != UINT32_MAX; k = d->paths.rows[k].parent) {
		if (n < 64)
			chain[n++] = k;
		depth++;
	}
	/* chain holds the innermost 64; the outermost is the last of them
	 * only when the path is no deeper */
	if (depth > n) {
		uint32_t top = r;

		while (d->paths.rows[top].parent != UINT32_MAX)
			top = d->paths.rows[top].parent;
		fprintf(out, "%s > ... (%zu more) > ", d->names[d->paths.rows[top].name],
			depth - n - 1);
	}
	while (n--)
		fprintf(out, "%s%s", d->names[d->paths.rows[chain[n]].name], n ? " > " : "");
}

static int put_table(FILE *out, const struct differ *d, const struct table *t, bool paths,
		     long limit)
{
	uint32_t *order = malloc((t->n ? t->n : 1) * sizeof(*order));
	size_t n = 0;

	if (!order)
		return -1;
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i].in[0] || t->rows[i].in[1])
			order[n++] = (uint32_t)i;
	sorting = t;
	sort_key = paths ? LOCAL : TOTAL;
	qsort(order, n, sizeof(*order), by_change);
	if (limit >= 0 && (size_t)limit < n)
		n = (size_t)limit;
	fprintf(out, "%s (times in usec):\n",
		paths ? "Call paths, the largest change in own time first"
		      : "Functions, the largest change in time first");
	fprintf(out, "%8s %8s %8s  %11s %11s %11s %8s", "Calls", "", "", "Time", "", "", "");
	fprintf(out, "  %11s %11s %8s", paths ? "Own" : "Local", "", "");
	if (!paths)
		fprintf(out, "  %11s %11s %8s", "p99", "", "");
	fprintf(out, "\n%8s %8s %8s  %11s %11s %11s %8s", "old", "new", "change", "old", "new",
		"change", "%");
	fprintf(out, "  %11s %11s %8s", "old", "new", "%");
	if (!paths)
		fprintf(out, "  %11s %11s %8s", "old", "new", "%");
	fputs("  Function\n", out);
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &t->rows[order[i]];

		fprintf(out, "%8" PRId64 " %8" PRId64 " %+8" PRId64 " ", r->v[0][CALLS],
			r->v[1][CALLS], change(r, CALLS));
		put_us(out, r, 0, TOTAL);
		put_us(out, r, 1, TOTAL);
		fprintf(out, " %+11.1f", (double)change(r, TOTAL) / 1000);
		put_share(out, r, TOTAL);
		fputc(' ', out);
		put_us(out, r, 0, LOCAL);
		put_us(out, r, 1, LOCAL);
		put_share(out, r, LOCAL);
		if (!paths) {
			fputc(' ', out);
			put_us(out, r, 0, P99);
			put_us(out, r, 1, P99);
			put_share(out, r, P99);
		}
		fputs("  ", out);
		if (paths)
			put_path(out, d, order[i]);
		else
			fputs(d->names[r->name], out);
		fputc('\n', out);
	}
	free(order);
	return 0;
}

int kft_view_diff(FILE *out, const struct kft_trace *old, struct kft_symbolizer *old_sz,
		  const struct kft_trace *new, struct kft_symbolizer *new_sz,
		  const struct kft_diff_opts *o, struct kft_error *err)
{
	struct differ d = { 0 };
	int ret = -1;

	if (add_functions(&d, 0, old, old_sz, err) || add_functions(&d, 1, new, new_sz, err))
		goto out;
	if (o->paths && (add_paths(&d, 0, old, old_sz, err) || add_paths(&d, 1, new, new_sz, err)))
		goto out;
	if (put_table(out, &d, &d.funcs, false, o->limit) ||
	    (o->paths && (fputc('\n', out), put_table(out, &d, &d.paths, true, o->limit)))) {
		kft_error_set(err, "out of memory");
		goto out;
	}
	ret = ferror(out) ? kft_error_set(err, "write error") : 0;
out:
	for (size_t i = 0; i < d.nnames; i++)
		free(d.names[i]);
	free(d.names);
	kft_strmap_free(&d.ids);
	free(d.funcs.rows);
	free(d.paths.rows);
	kft_addrmap_free(&d.path_at);
	return ret;
}
