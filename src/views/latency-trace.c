// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>

#include "latency-trace.h"
#include "views.h"

void kft_lat_head(FILE *out, const struct kft_lat_head *h)
{
	fprintf(out, "# tracer: %s\n%s\n"
		     "latency: %" PRIu64 " us, #%" PRIu64 "/%" PRIu64 ", CPU#%s | (M:- VP:0, KP:0, "
		     "SP:0 HP:0 #P:-)\n",
		h->tracer, h->title, h->latency_us, h->shown, h->total, h->cpu);
	if (h->task)
		fprintf(out, "| task: %s\n", h->task);
	if (h->started)
		fprintf(out, "=> started at: %s\n=> ended at: %s\n", h->started, h->ended);
	if (h->verbose) {
		fputs("# comm pid cpu flags preempt-count index [time] time (+delay): "
		      "function (caller)\n", out);
		return;
	}
	/* what a program's trace cannot know is '.' */
	fputs("#                _------=> CPU# (its last digit; . not known)\n"
	      "#               / _-----=> irqs-off (. not known)\n"
	      "#              | / _----=> need-resched (. not known)\n"
	      "#              || / _---=> hardirq/softirq (h: a signal handler)\n"
	      "#              ||| / _--=> preempt-depth (. not known)\n"
	      "#              |||| /\n"
	      "#              |||||     delay\n"
	      "#  cmd     pid ||||| time  |   caller\n"
	      "#     \\   /    |||||   \\   |   /\n",
	      out);
}

void kft_lat_row(FILE *out, const struct kft_lat_row *r)
{
	fprintf(out, "%8s-%-5" PRIu32 " %c..%c. %4" PRIu64 "us%c: %s (%s)\n", r->comm, r->pid,
		r->cpu < 0 ? '.' : (char)('0' + r->cpu % 10), r->handler ? 'h' : '.',
		r->rel_ns / 1000, kft_view_delay_mark(r->delay_ns), r->func, r->caller);
}

void kft_lat_row_verbose(FILE *out, const struct kft_lat_row *r)
{
	char cpu[24] = "-";	/* not known */

	if (r->cpu >= 0)
		snprintf(cpu, sizeof(cpu), "%" PRId64, r->cpu);
	fprintf(out, "%s %" PRIu32 " %s %d 00000000 %08" PRIx64 " [%08" PRIx64 "] %" PRIu64
		".%03" PRIu64 "ms (+%" PRIu64 ".%03" PRIu64 "ms): %s (%s)\n",
		r->comm, r->pid, cpu, r->handler, r->index, (r->entry_ns / 1000) & 0xffffffffu,
		r->rel_ns / 1000000, r->rel_ns / 1000 % 1000, r->delay_ns / 1000000,
		r->delay_ns / 1000 % 1000, r->func, r->caller);
}
