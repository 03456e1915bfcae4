// SPDX-License-Identifier: GPL-2.0-only
/* kft stats: per-function call rates, intervals and durations, in one
 * pass over the call stream (entry order, all threads merged). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../common/sort.h"
#include "stats.h"

static void add(struct kft_stat_series *s, int64_t ns)
{
	unsigned int b = 0;

	if (!s->n || ns < s->min_ns)
		s->min_ns = ns;
	if (!s->n || ns > s->max_ns)
		s->max_ns = ns;
	s->n++;
	s->sum_ns += (double)ns;
	s->sumsq += (double)ns * (double)ns;
	for (uint64_t v = ns > 0 ? (uint64_t)ns : 0; v && b < KFT_STATS_BUCKETS - 1; v >>= 1)
		b++;
	s->buckets[b]++;
}

/* Room for function f's stats (all zero when new). */
static struct kft_func_stats *stats_of(struct kft_stats *st, uint32_t f, size_t *cap)
{
	while (f >= st->nfuncs) {
		if (kft_grow((void **)&st->funcs, st->nfuncs, cap, sizeof(*st->funcs), 256))
			return NULL;
		memset(&st->funcs[st->nfuncs], 0, sizeof(*st->funcs));
		st->funcs[st->nfuncs].func = (uint32_t)st->nfuncs;
		st->nfuncs++;
	}
	return &st->funcs[f];
}

static int one_call(struct kft_stats *st, const struct kft_call *c, uint32_t f, size_t *cap)
{
	struct kft_func_stats *s = stats_of(st, f, cap);
	uint64_t at = kft_export_entry(&st->x, c);

	if (!s)
		return -1;
	if (s->fired) {
		int64_t gap = (int64_t)(at - s->last_ns);

		if (!s->interval.n || gap > s->interval.max_ns) {
			s->longest.from_ns = s->last_ns;
			s->longest.to_ns = at;
			s->longest.pid = c->pid;
			s->longest.tid = c->tid;
		}
		add(&s->interval, gap);
	} else {
		s->first_ns = at;
	}
	s->fired++;
	s->last_ns = at;
	if (c->dur_ns < 0)
		return 0;
	add(&s->duration, c->dur_ns);
	if (st->switches)
		s->oncpu_ns += (double)c->dur_ns -
			       (double)kft_switches_off_ns(st->switches, c->tid, c->entry_ns,
							   c->entry_ns + (uint64_t)c->dur_ns);
	return kft_durs_add(&s->durs, c->dur_ns);
}

static int by_fired(const void *a, const void *b, void *names)
{
	const struct kft_func_stats *x = a, *y = b;
	const struct kft_func *funcs = names;

	if (x->fired != y->fired)
		return x->fired < y->fired ? 1 : -1;
	return strcmp(funcs[x->func].name, funcs[y->func].name);
}

/* The functions that ran, most calls first, with their percentiles: 0,
 * or -1 with err set. */
static int finish(struct kft_stats *st, struct kft_error *err)
{
	size_t kept = 0;

	for (size_t i = 0; i < st->nfuncs; i++) {
		struct kft_func_stats *s = &st->funcs[i];
		struct kft_spread sp;

		if (!s->fired)
			continue;
		if (kft_durs_count(&s->durs)) {
			if (kft_durs_spread(&s->durs, (int64_t)s->duration.sum_ns, &sp, err))
				return -1;
			s->p50_ns = sp.p50_ns;
			s->p99_ns = sp.p99_ns;
			s->sd_ns = sp.sd_ns;
		}
		kft_durs_free(&s->durs);
		st->funcs[kept++] = *s;
	}
	st->nfuncs = kept;
	if (st->nfuncs > 1)
		qsort_r(st->funcs, st->nfuncs, sizeof(*st->funcs), by_fired, st->x.names.funcs);
	return 0;
}

int kft_stats_compute(struct kft_stats *st, const struct kft_trace *tr,
		      struct kft_symbolizer *sz, const struct kft_export_opts *o,
		      struct kft_error *err)
{
	struct kft_calls *cs;
	struct kft_call c;
	size_t cap = 0;

	memset(st, 0, sizeof(*st));
	if (kft_export_begin(&st->x, tr, sz, o, err))
		return -1;
	st->span_ns = st->x.end > st->x.base ? st->x.end - st->x.base : 0;
	st->switches = tr->switches.present ? &tr->switches : NULL;
	cs = kft_calls_open_flat(tr, err);	/* intervals need no nesting */
	if (!cs)
		return -1;
	st->x.total = kft_calls_total(cs);
	while (kft_calls_next(cs, &c) > 0) {
		uint32_t f;

		kft_export_progress(&st->x);
		if (c.dur_ns == -2)
			continue;	/* a stack-watch row */
		if (kft_export_func(&st->x, &c, &f) ||
		    (kft_export_kept(&st->x, &c, f) && one_call(st, &c, f, &cap))) {
			kft_calls_close(cs);
			return kft_error_set(err, "out of memory");
		}
	}
	kft_calls_close(cs);
	return finish(st, err);
}

void kft_stats_free(struct kft_stats *st)
{
	for (size_t i = 0; i < st->nfuncs; i++)
		kft_durs_free(&st->funcs[i].durs);
	free(st->funcs);
	kft_export_end(&st->x);
	memset(st, 0, sizeof(*st));
}

static double avg_of(const struct kft_stat_series *s)
{
	return s->n ? s->sum_ns / (double)s->n : 0;
}

void kft_stats_put_us(FILE *out, bool have, double ns)
{
	if (have)
		fprintf(out, " %10.1f", ns / 1000);
	else
		fprintf(out, " %10s", "-");
}

/* " title " centered in width dashes. */
static void put_banner(FILE *out, const char *title, int width)
{
	int len = (int)strlen(title) + 2, left = (width - len) / 2;

	for (int i = 0; i < width; i++)
		putc(i < left || i >= left + len ? '-'
		     : i == left || i == left + len - 1 ? ' '
							: title[i - left - 1],
		     out);
}

void kft_stats_print(FILE *out, const struct kft_stats *st)
{
	int w = 8;

	for (size_t i = 0; i < st->nfuncs; i++) {
		int len = (int)strlen(st->x.names.funcs[st->funcs[i].func].name);

		if (len > w)
			w = len;
	}
	fprintf(out, "%*s %10s %10s ", w, "", "", "");
	put_banner(out, "Interval (us)", 4 * 11 - 1);
	putc(' ', out);
	put_banner(out, "Duration (us)", 7 * 11 - 1);
	putc('\n', out);
	fprintf(out, "%-*s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s\n",
		w, "Function", "Fired", "Freq (Hz)", "Min", "Avg", "Max", "SD", "Min", "Avg", "Max",
		"SD", "p50", "p99", "On-CPU");
	for (size_t i = 0; i < st->nfuncs; i++) {
		const struct kft_func_stats *s = &st->funcs[i];
		const struct kft_stat_series *iv = &s->interval, *d = &s->duration;

		fprintf(out, "%-*s %10" PRIu64, w, st->x.names.funcs[s->func].name, s->fired);
		if (st->span_ns)
			fprintf(out, " %10.1f", (double)s->fired * 1e9 / (double)st->span_ns);
		else
			fprintf(out, " %10s", "-");
		kft_stats_put_us(out, iv->n, (double)iv->min_ns);
		kft_stats_put_us(out, iv->n, avg_of(iv));
		kft_stats_put_us(out, iv->n, (double)iv->max_ns);
		kft_stats_put_us(out, iv->n, kft_stddev_of_sums(iv->n, iv->sum_ns, iv->sumsq));
		kft_stats_put_us(out, d->n, (double)d->min_ns);
		kft_stats_put_us(out, d->n, avg_of(d));
		kft_stats_put_us(out, d->n, (double)d->max_ns);
		kft_stats_put_us(out, d->n, s->sd_ns);
		kft_stats_put_us(out, d->n, (double)s->p50_ns);
		kft_stats_put_us(out, d->n, (double)s->p99_ns);
		kft_stats_put_us(out, d->n && st->switches, d->n ? s->oncpu_ns / (double)d->n : 0);
		putc('\n', out);
	}
}
