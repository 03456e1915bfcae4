// SPDX-License-Identifier: GPL-2.0-only
/* kft stats --by, kft latency --by: a function's calls grouped by the
 * value one of their saved arguments (or the return value) had, so that
 * which file, which size or which answer was slow shows at a glance. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../config/config.h"
#include "../format/call-args.h"
#include "stats.h"

int kft_arg_key_parse(const char *text, char *func, size_t size, int *slot)
{
	const char *at = strchr(text, '@');
	struct kft_argspec spec;

	if (!at || at == text || (size_t)(at - text) >= size || kft_argspec_parse(at + 1, &spec) ||
	    spec.n != 1)
		return -1;
	memcpy(func, text, (size_t)(at - text));
	func[at - text] = '\0';
	*slot = spec.item[0].slot;
	return 0;
}

/* `--by key` into func and slot, for trace(s) tr[0..ntr) that must hold
 * saved values: 0, or -1 with err naming key. */
static int by_key(const char *key, const struct kft_trace *const *tr, int ntr, char *func,
		  size_t size, int *slot, struct kft_error *err)
{
	if (kft_arg_key_parse(key, func, size, slot))
		return kft_error_set(err,
				     "--by %s: not FUNC@argN (N 1 to %d), FUNC@fpargN (1 to %d) "
				     "or FUNC@retval",
				     key, KFT_MAX_ARGS, KFT_MAX_FPARGS);
	for (int i = 0; i < ntr; i++)
		if (!tr[i]->nargs)
			return kft_error_set(err,
					     "--by %s: %s holds no saved arguments or return "
					     "values (kft record -A, -R)",
					     key, tr[i]->dir);
	return 0;
}

/* The group of value text (a new one, all zero, when first met). */
static struct kft_arg_group *group_of(struct kft_arg_groups *g, const char *text, size_t *cap)
{
	uint32_t i;

	if (kft_strmap_get(&g->index, text, &i))
		return &g->v[i];
	if (kft_grow((void **)&g->v, g->n, cap, sizeof(*g->v), 16))
		return NULL;
	memset(&g->v[g->n], 0, sizeof(*g->v));
	if (!(g->v[g->n].value = strdup(text)) ||
	    kft_strmap_put(&g->index, text, (uint32_t)g->n)) {
		free(g->v[g->n].value);
		return NULL;
	}
	return &g->v[g->n++];
}

static int one_call(struct kft_arg_groups *g, const struct kft_trace *tr,
		    const struct kft_call *c, size_t *cap)
{
	char text[KFT_ARGS_TEXT_MAX];
	struct kft_call_args a;
	const struct kft_argrec *r = NULL;
	struct kft_arg_group *grp;
	uint64_t dur;

	if (kft_call_args(tr, c, &a))
		r = g->slot == KFT_ARGVAL_RETVAL ? a.ret : a.args;
	text[0] = '\0';
	if (r)
		kft_argrec_value(r, g->slot, text, sizeof(text));
	if (!text[0])
		strcpy(text, "-");	/* none saved for this call */
	if (!(grp = group_of(g, text, cap)))
		return -1;
	grp->calls++;
	if (c->dur_ns < 0) {
		grp->unfinished++;
		return 0;
	}
	dur = (uint64_t)c->dur_ns;
	if (!grp->finished || dur < grp->min_ns)
		grp->min_ns = dur;
	if (!grp->finished || dur > grp->max_ns) {
		grp->max_ns = dur;
		grp->worst_at_ns = kft_export_entry(&g->x, c);
		grp->worst_tid = c->tid;
	}
	grp->finished++;
	grp->total_ns += dur;
	return 0;
}

static int by_total(const void *a, const void *b)
{
	const struct kft_arg_group *x = a, *y = b;

	if (x->total_ns != y->total_ns)
		return x->total_ns < y->total_ns ? 1 : -1;
	return strcmp(x->value, y->value);
}

static int by_worst(const void *a, const void *b)
{
	const struct kft_arg_group *x = a, *y = b;

	if (x->max_ns != y->max_ns)
		return x->max_ns < y->max_ns ? 1 : -1;
	return strcmp(x->value, y->value);
}

int kft_arg_groups_compute(struct kft_arg_groups *g, const struct kft_trace *tr,
			   struct kft_symbolizer *sz, const char *func, int slot, bool worst_first,
			   struct kft_error *err)
{
	struct kft_calls *cs;
	struct kft_call c;
	size_t cap = 0;
	int got;

	memset(g, 0, sizeof(*g));
	g->slot = slot;
	g->only[0] = func;
	g->o.only = g->only;
	g->o.nonly = 1;
	if (kft_export_begin(&g->x, tr, sz, &g->o, err))
		return -1;
	cs = kft_calls_open_flat(tr, err);
	if (!cs)
		return -1;
	g->x.total = kft_calls_total(cs);
	while ((got = kft_calls_next(cs, &c)) > 0) {
		uint32_t f;

		kft_export_progress(&g->x);
		if (c.dur_ns == -2)
			continue;	/* a stack-watch row */
		if (kft_export_func(&g->x, &c, &f) ||
		    (kft_export_kept(&g->x, &c, f) && one_call(g, tr, &c, &cap))) {
			kft_calls_close(cs);
			return kft_error_set(err, "out of memory");
		}
	}
	kft_calls_close(cs);
	if (got < 0)
		return kft_error_set(err, "%s: a damaged call stream", tr->dir);
	if (g->n > 1)
		qsort(g->v, g->n, sizeof(*g->v), worst_first ? by_worst : by_total);
	/* the index, to the groups' places once sorted */
	for (size_t i = 0; i < g->n; i++)
		if (kft_strmap_put(&g->index, g->v[i].value, (uint32_t)i))
			return kft_error_set(err, "out of memory");
	return 0;
}

void kft_arg_groups_free(struct kft_arg_groups *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->v[i].value);
	free(g->v);
	kft_strmap_free(&g->index);
	kft_export_end(&g->x);
	memset(g, 0, sizeof(*g));
}

void kft_arg_groups_print(FILE *out, const struct kft_arg_groups *g, const char *key,
			  bool worst_first)
{
	int w = (int)strlen(key);

	for (size_t i = 0; i < g->n; i++) {
		int len = (int)strlen(g->v[i].value);

		if (len > w)
			w = len;
	}
	if (worst_first)
		fprintf(out, "%-*s %10s %10s %12s %8s\n", w, key, "Calls", "Max (us)", "At (s)",
			"Tid");
	else
		fprintf(out, "%-*s %10s %10s %10s %10s %10s\n", w, key, "Calls", "Total (us)",
			"Min", "Avg", "Max");
	for (size_t i = 0; i < g->n; i++) {
		const struct kft_arg_group *v = &g->v[i];
		bool have = v->finished > 0;

		fprintf(out, "%-*s %10" PRIu64, w, v->value, v->calls);
		if (worst_first) {
			kft_stats_put_us(out, have, (double)v->max_ns);
			if (have)
				fprintf(out, " %12.6f %8" PRIu32 "\n", (double)v->worst_at_ns / 1e9,
					v->worst_tid);
			else
				fprintf(out, " %12s %8s\n", "-", "-");
			continue;
		}
		kft_stats_put_us(out, have, (double)v->total_ns);
		kft_stats_put_us(out, have, (double)v->min_ns);
		kft_stats_put_us(out, have, have ? (double)v->total_ns / (double)v->finished : 0);
		kft_stats_put_us(out, have, (double)v->max_ns);
		putc('\n', out);
	}
}

int kft_view_by_arg(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		    const char *key, bool worst_first, struct kft_error *err)
{
	struct kft_arg_groups g;
	char func[512];
	int slot, ret;

	if (by_key(key, &tr, 1, func, sizeof(func), &slot, err))
		return -1;
	ret = kft_arg_groups_compute(&g, tr, sz, func, slot, worst_first, err);
	if (!ret && !g.n)
		ret = kft_error_set(err, "--by %s: %s never ran in %s", key, func, tr->dir);
	if (!ret)
		kft_arg_groups_print(out, &g, key, worst_first);
	kft_arg_groups_free(&g);
	return ret;
}

/* ---- kft diff --by: the two traces' groups side by side ---------------- */

struct diff_row {
	const char *value;
	const struct kft_arg_group *old, *new_;	/* NULL: none there */
	int64_t change_ns;
};

static int by_change(const void *a, const void *b)
{
	const struct diff_row *x = a, *y = b;
	int64_t ax = x->change_ns < 0 ? -x->change_ns : x->change_ns,
		ay = y->change_ns < 0 ? -y->change_ns : y->change_ns;

	if (ax != ay)
		return ax < ay ? 1 : -1;
	return strcmp(x->value, y->value);
}

static void put_side(FILE *out, const struct kft_arg_group *g)
{
	if (g)
		fprintf(out, " %10" PRIu64 " %12.1f", g->calls, (double)g->total_ns / 1000);
	else
		fprintf(out, " %10s %12s", "-", "-");
}

int kft_view_diff_by_arg(FILE *out, const struct kft_trace *old_tr, struct kft_symbolizer *old_sz,
			 const struct kft_trace *new_tr, struct kft_symbolizer *new_sz,
			 const char *key, long limit, struct kft_error *err)
{
	struct kft_arg_groups g[2];
	struct diff_row *rows = NULL;
	const struct kft_trace *tr[2] = { old_tr, new_tr };
	struct kft_symbolizer *sz[2] = { old_sz, new_sz };
	size_t n = 0;
	char func[512];
	int slot, ret = 0, w;

	memset(g, 0, sizeof(g));
	ret = by_key(key, tr, 2, func, sizeof(func), &slot, err);
	for (int i = 0; i < 2 && !ret; i++)
		ret = kft_arg_groups_compute(&g[i], tr[i], sz[i], func, slot, false, err);
	if (!ret && !(rows = calloc(g[0].n + g[1].n + 1, sizeof(*rows))))
		ret = kft_error_set(err, "out of memory");
	if (ret)
		goto out;
	/* every value of either, once, with its group on each side */
	for (int i = 0; i < 2; i++)
		for (size_t k = 0; k < g[i].n; k++) {
			const struct kft_arg_group *v = &g[i].v[k];
			uint32_t at;

			/* (the old groups are rows 0 .. g[0].n - 1, in order) */
			if (i == 1 && kft_strmap_get(&g[0].index, v->value, &at)) {
				rows[at].new_ = v;
				continue;
			}
			rows[n].value = v->value;
			if (i == 0)
				rows[n].old = v;
			else
				rows[n].new_ = v;
			n++;
		}
	for (size_t r = 0; r < n; r++)
		rows[r].change_ns = (int64_t)(rows[r].new_ ? rows[r].new_->total_ns : 0) -
				    (int64_t)(rows[r].old ? rows[r].old->total_ns : 0);
	if (n > 1)
		qsort(rows, n, sizeof(*rows), by_change);
	if (limit >= 0 && (size_t)limit < n)
		n = (size_t)limit;
	w = (int)strlen(key);
	for (size_t r = 0; r < n; r++)
		if ((int)strlen(rows[r].value) > w)
			w = (int)strlen(rows[r].value);
	fprintf(out, "%-*s %10s %12s %10s %12s %12s\n", w, key, "Calls old", "Time old", "Calls new",
		"Time new", "Change");
	for (size_t r = 0; r < n; r++) {
		fprintf(out, "%-*s", w, rows[r].value);
		put_side(out, rows[r].old);
		put_side(out, rows[r].new_);
		if (!rows[r].old)
			fprintf(out, " %12s\n", "new");
		else if (!rows[r].new_)
			fprintf(out, " %12s\n", "gone");
		else
			fprintf(out, " %+12.1f\n", (double)rows[r].change_ns / 1000);
	}
out:
	free(rows);
	kft_arg_groups_free(&g[0]);
	kft_arg_groups_free(&g[1]);
	return ret;
}
