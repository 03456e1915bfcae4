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
#include "kd-lines.h"

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
	{ 'U', "Unfinished", 10, false },	{ 'o', "On-CPU", 8, false },
	{ 'T', "Doubt", 8, false },	{ 'K', "Taken", 8, false },
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
	/* a function none of whose calls finished has no time to show */
	case 't': *v = kft_kd_us(s->time_ns); return finished(s) || c->fs->classic;
	case 'a':
		if (c->fs->classic) {
			*v = s->time_ns == -1000 ? -1 : floordiv(kft_kd_us(s->time_ns), (long long)s->count);
			return true;
		}
		if (!finished(s))
			return false;
		*v = kft_kd_us(s->sum_ns / (int64_t)finished(s));
		return true;
	case 's': *v = kft_kd_us(s->sub_ns); return finished(s) || c->fs->classic;
	case 'l': *v = kft_kd_us(s->local_ns); return finished(s) || c->fs->classic;
	case 'n': *v = (long long)s->max_sub_count; return true;
	case 'N': *v = kft_kd_us(s->min_ns); return finished(s) || c->fs->classic;
	case 'X': *v = kft_kd_us(s->max_ns); return finished(s) || c->fs->classic;
	case 'D': *v = kft_kd_us((int64_t)(s->stddev_ns + 0.5)); return finished(s) && !c->fs->classic;
	case 'M': *v = kft_kd_us(s->p50_ns); return finished(s) && !c->fs->classic;
	case 'P': *v = kft_kd_us(s->p95_ns); return finished(s) && !c->fs->classic;
	case 'Q': *v = kft_kd_us(s->p99_ns); return finished(s) && !c->fs->classic;
	case 'U': *v = (long long)s->unfinished; return true;
	case 'o':
		/* Time less what it spent switched out */
		*v = kft_kd_us(s->time_ns - s->off_ns);
		return c->fs->switches && !c->fs->classic && finished(s);
	case 'T':
		/* how far Time may be off either way, by --compensate's model */
		*v = kft_kd_us((int64_t)(kft_compensation_doubt_ns(&c->fs->comp, s->time_calls,
								   s->time_nested) + 0.5));
		return c->fs->comp.known && !c->fs->classic && finished(s);
	case 'K':
		/* what --compensate took off Time (an estimate) */
		*v = kft_kd_us((int64_t)(kft_compensation_taken_ns(&c->fs->comp, s->time_calls,
								   s->time_nested) + 0.5));
		return c->fs->comp.known && !c->fs->classic && finished(s);
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


static void summary_cell(struct kft_linebuf *lb, const struct summary_ctx *c,
			 const struct kft_func_stat *s, const struct column *col)
{
	long long v;

	switch (col->letter) {
	case 'F':
		kft_lb_add(lb, "%-35s", func_name(c, s->func));
		return;
	case 'r':
		if (c->fs->classic || (finished(s) && s->min_ns != s->max_ns)) {
			char range[64];

			snprintf(range, sizeof(range), "(%lld-%lld)", kft_kd_us(s->min_ns), kft_kd_us(s->max_ns));
			kft_lb_add(lb, "%12s", range);
		} else {
			kft_lb_add(lb, "%12s", "");
		}
		return;
	case 'm':
		kft_lb_add(lb, "%35s", s->max_sub == KFT_NONE ? "" : func_name(c, s->max_sub));
		return;
	case 'u':
		kft_lb_add(lb, "[");
		for (size_t i = 0; i < s->nchildren; i++)
			kft_lb_add(lb, "%s'%s'", i ? ", " : "", func_name(c, s->children[i].func));
		kft_lb_add(lb, "]");
		return;
	}
	if (value_of(c, s, col->letter, &v))
		kft_lb_add(lb, "%*lld", col->width, v);
	else
		kft_lb_add(lb, "%*s", col->width, "-");
}

/* The functions shown whose compensated Time is less than what was taken
 * off it: said on stderr, as a warning that the model makes most of it. */
static void warn_compensation(const struct summary_ctx *c, const struct kft_func_stat *const *rows,
			      size_t nrows)
{
	size_t n = 0;

	for (size_t r = 0; r < nrows; r++) {
		const struct kft_func_stat *s = rows[r];
		long long taken;

		if (!value_of(c, s, 'K', &taken) || taken <= kft_kd_us(s->time_ns))
			continue;
		if (n < 3)
			fprintf(stderr, "%s%s: %lld us taken off, %lld us left", n ? "; " :
				"kft: kd: compensation took off more than it left (the model makes "
				"most of these Times): ", func_name(c, s->func), taken,
				kft_kd_us(s->time_ns));
		n++;
	}
	if (n > 3)
		fprintf(stderr, "; and %zu more", n - 3);
	if (n)
		fprintf(stderr, "\n");
}

int kft_view_kd_summary(FILE *out, const struct kft_calltree *t, const struct kft_funcstats *fs,
			const struct kft_kd_opts *o, struct kft_error *err)
{
	struct summary_ctx c = { t, fs, o };
	/* a compensated trace: how far each Time can be trusted, beside it */
	const char *letters = o->columns			 ? o->columns
			      : fs->comp.known && !fs->classic ? "FctTKal"
							       : "Fctal";
	const struct kft_func_stat **rows;
	const struct column *cols[64];
	size_t ncols = 0, nrows = 0;
	struct kft_linebuf lb = { 0 };
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
		if (fs->funcs[f].count && kft_kd_us(fs->funcs[f].time_ns) >= o->min_time_us)
			rows[nrows++] = &fs->funcs[f];
	sort_ctx = &c;
	qsort(rows, nrows, sizeof(*rows), cmp_stats);
	for (int pass = 0; pass < 2; pass++) {
		lb.len = 0;
		for (size_t i = 0; i < ncols; i++) {
			if (pass == 0)
				kft_lb_add(&lb, "%s%-*s", i ? " " : "", cols[i]->width, cols[i]->title);
			else
				kft_lb_add(&lb, "%s%.*s", i ? " " : "", cols[i]->width,
				       "------------------------------------------------------------");
		}
		if (!lb.s)
			goto oom;
		kft_kd_put_line(out, lb.s);
	}
	for (size_t r = 0; r < nrows && (o->limit < 0 || shown < o->limit); r++, shown++) {
		lb.len = 0;
		for (size_t i = 0; i < ncols; i++) {
			if (i)
				kft_lb_add(&lb, " ");
			summary_cell(&lb, &c, rows[r], cols[i]);
		}
		if (!lb.s)
			goto oom;
		kft_kd_put_line(out, lb.s);
	}
	if (fs->comp.known && !fs->classic)
		warn_compensation(&c, rows, o->limit < 0 || (size_t)o->limit > nrows ? nrows
										  : (size_t)o->limit);
	free(lb.s);
	free(rows);
	return 0;
oom:
	free(rows);
	return kft_error_set(err, "out of memory");
}
