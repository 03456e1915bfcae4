// SPDX-License-Identifier: GPL-2.0-only
/* kft stats: what a thread ran during a function's longest interval, as
 * KPTrace's users looked it up in the trace by hand. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/nest.h"
#include "stats.h"

static void put_call(FILE *out, const struct kft_stats *st, const struct kft_call *c, uint32_t f,
		     uint64_t at)
{
	fprintf(out, "  %12.6f ", (double)at / 1e9);
	if (c->dur_ns >= 0)
		fprintf(out, "%12.1f us  ", (double)c->dur_ns / 1000);
	else
		fprintf(out, "%15s  ", "unfinished");
	fprintf(out, "%s%s%s\n", st->x.names.funcs[f].name,
		(c->flags & KFT_REC_SIGNAL) ? " (signal handler)" : "",
		(c->flags & KFT_REC_KERNEL) ? " (kernel)" : "");
}

int kft_stats_print_gap(FILE *out, const struct kft_stats *st, const struct kft_func_stats *s,
			const struct kft_trace *tr, size_t limit, struct kft_error *err)
{
	uint64_t from = s->longest.from_ns, to = s->longest.to_ns, outer_end = 0, more = 0;
	struct export_ctx *x = (struct export_ctx *)&st->x;
	struct kft_nest open = { 0 };	/* the program's calls open */
	size_t *idx, nidx = 0, shown = 0;
	bool inside_said = false;
	struct kft_calls *cs;
	struct kft_call c;
	int ret = -1;

	if (!s->interval.n)
		return 0;
	idx = malloc((tr->nthreads ? tr->nthreads : 1) * sizeof(*idx));
	if (!idx)
		return kft_error_set(err, "out of memory");
	for (size_t i = 0; i < tr->nthreads; i++)
		if (tr->threads[i].hdr.pid == s->longest.pid && tr->threads[i].hdr.tid == s->longest.tid)
			idx[nidx++] = i;
	cs = kft_calls_open(tr, idx, nidx, err);
	if (!cs)
		goto out;
	fprintf(out, "\nThe longest interval of %s, %.1f us, from %.6f s to %.6f s, on thread %" PRIu32
		     ":\n",
		x->names.funcs[s->func].name, (double)(to - from) / 1000, (double)from / 1e9,
		(double)to / 1e9, s->longest.tid);
	while (kft_calls_next(cs, &c) > 0) {
		uint64_t at = kft_export_entry(x, &c), end;
		uint32_t f;

		if (c.dur_ns == -2 || c.pid != s->longest.pid || c.tid != s->longest.tid)
			continue;
		if (at > to)
			break;
		if (kft_export_func(x, &c, &f))
			goto oom;
		end = at + kft_export_duration(x, &c);
		if (!(c.flags & KFT_REC_SIGNAL))
			while (kft_nest_closes(&open, &c))
				kft_nest_pop(&open);
		if (at < from) {
			if (c.flags & KFT_REC_SIGNAL)
				continue;
			if (!kft_nest_push(&open, &c, (uint32_t)open.n))
				goto oom;
			continue;
		}
		if (!inside_said) {
			/* the calls the thread was in all through the gap */
			bool any = false;

			for (size_t i = 0; i < open.n; i++) {
				const struct kft_call *o = &open.open[i].call;
				uint32_t of;

				if (kft_export_entry(x, o) + kft_export_duration(x, o) < to)
					continue;
				if (kft_export_func(x, o, &of))
					goto oom;
				fprintf(out, "%s%s", any ? " > " : "  inside: ",
					x->names.funcs[of].name);
				any = true;
			}
			if (any)
				putc('\n', out);
			inside_said = true;
		}
		if (at < outer_end)
			continue;	/* inside a call shown */
		outer_end = end;
		if (shown == limit) {
			more++;
			continue;
		}
		put_call(out, st, &c, f, at);
		shown++;
	}
	if (more)
		fprintf(out, "  ... and %" PRIu64 " more calls\n", more);
	ret = 0;
	goto out;
oom:
	kft_error_set(err, "out of memory");
out:
	kft_calls_close(cs);
	kft_nest_free(&open);
	free(idx);
	return ret;
}
