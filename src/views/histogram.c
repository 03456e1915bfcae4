// SPDX-License-Identifier: GPL-2.0-only
/* kft stats --hist: a function's durations or intervals in log-scale
 * buckets, as bars on a terminal or as an SVG picture. */
#include <inttypes.h>
#include <string.h>

#include "stats.h"

#define BAR 50		/* the longest bar, in characters */

/* A bucket's lower bound (2^(b-1) ns; 0 for bucket 0) as text. */
static void bound(char *buf, size_t size, unsigned int b)
{
	uint64_t ns = b ? 1ULL << (b - 1) : 0;

	if (ns >= 1000000000ULL)
		snprintf(buf, size, "%.3g s", (double)ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, size, "%.3g ms", (double)ns / 1e6);
	else if (ns >= 1000)
		snprintf(buf, size, "%.3g us", (double)ns / 1e3);
	else
		snprintf(buf, size, "%" PRIu64 " ns", ns);
}

static void put_svg(FILE *out, const char *title, const uint64_t *buckets, unsigned int lo,
		    unsigned int hi, uint64_t most)
{
	const double bar = 40, gap = 8, height = 300, left = 60, top = 40;
	double width = left + (hi - lo + 1) * (bar + gap) + 20;
	char from[32];

	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		     "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		     "height=\"%.0f\" font-family=\"monospace\" font-size=\"11\">\n"
		     "<rect width=\"100%%\" height=\"100%%\" fill=\"rgb(250,250,240)\"/>\n"
		     "<text x=\"%.0f\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">",
		width, top + height + 60, width / 2);
	for (const char *p = title; *p; p++)
		if (*p == '<' || *p == '&')
			fputs(*p == '<' ? "&lt;" : "&amp;", out);
		else
			putc(*p, out);
	fputs("</text>\n", out);
	for (unsigned int b = lo; b <= hi; b++) {
		double h = most ? height * (double)buckets[b] / (double)most : 0;
		double x = left + (b - lo) * (bar + gap);

		bound(from, sizeof(from), b);
		fprintf(out, "<g class=\"bucket\"><title>from %s: %" PRIu64 "</title>"
			     "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" "
			     "fill=\"rgb(230,120,40)\"/>"
			     "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"middle\">%" PRIu64 "</text>"
			     "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">%s</text></g>\n",
			from, buckets[b], x, top + height - h, bar, h, x + bar / 2,
			top + height - h - 4, buckets[b], x + bar / 2, top + height + 16, from);
	}
	fputs("</svg>\n", out);
}

void kft_stats_histogram(FILE *out, const struct kft_stats *st, const struct kft_func_stats *s,
			 bool intervals, bool svg)
{
	const struct kft_stat_series *series = intervals ? &s->interval : &s->duration;
	const char *name = st->x.names.funcs[s->func].name;
	unsigned int lo = KFT_STATS_BUCKETS, hi = 0;
	uint64_t most = 0;
	char title[512], from[32], to[32];

	for (unsigned int b = 0; b < KFT_STATS_BUCKETS; b++) {
		if (!series->buckets[b])
			continue;
		if (lo == KFT_STATS_BUCKETS)
			lo = b;
		hi = b;
		if (series->buckets[b] > most)
			most = series->buckets[b];
	}
	snprintf(title, sizeof(title), "%s of %s: %" PRIu64 " %s", intervals ? "Intervals" : "Durations",
		 name, series->n, intervals ? "intervals between entries" : "finished calls");
	if (svg) {
		put_svg(out, title, series->buckets, lo == KFT_STATS_BUCKETS ? 0 : lo, hi, most);
		return;
	}
	fprintf(out, "%s\n", title);
	for (unsigned int b = lo; b <= hi && lo < KFT_STATS_BUCKETS; b++) {
		int len = most ? (int)((series->buckets[b] * BAR + most - 1) / most) : 0;

		bound(from, sizeof(from), b);
		bound(to, sizeof(to), b + 1);
		fprintf(out, "  %9s .. %-9s %10" PRIu64 " |%.*s%*s|\n", from, to, series->buckets[b],
			len, "##################################################", BAR - len, "");
	}
}
