// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a trace does not hold, thread by thread, and what to change for
 * it to: said by `kft record` when the program ends and by `kft status`.
 */
#include <inttypes.h>

#include "views.h"

#define MAX_THREADS_LISTED 8

/* What ended the log of a thread that filled it. */
static const char *full_why(const struct kft_trace *tr, const struct kft_thread_file *th,
			    char *buf, size_t size)
{
	if (th->hdr.capacity >= KFT_MAX_THREAD_RECORDS)
		snprintf(buf, size, "a thread's log holds at most %llu calls",
			 KFT_MAX_THREAD_RECORDS);
	else if (tr->ctl.max_size_reached)
		snprintf(buf, size, "the trace reached --max-size %" PRIu64 " bytes; raise it",
			 tr->ctl.max_log_bytes);
	else if (tr->cfg.logentries_set || tr->cfg.overwrite)
		snprintf(buf, size, "the log was full at logentries %" PRIu64 "; raise it in the "
			 "config", tr->cfg.logentries);
	else if (tr->ctl.disk_full)
		snprintf(buf, size, "no space left on the trace's file system");
	else
		snprintf(buf, size, "the log file could not grow (no space left on the device?)");
	return buf;
}

/* Why a part of the file stopped short of its layout's room. */
static const char *short_why(const struct kft_trace *tr, uint64_t cap, uint64_t layout)
{
	return tr->ctl.disk_full && cap < layout ? " (no space left on the trace's file system)"
						 : "";
}

static void thread_losses(FILE *out, const char *prefix, const struct kft_trace *tr,
			  const struct kft_thread_file *th)
{
	const struct kft_counters *c = &th->hdr.counters;
	char why[160];

	if (c->log_full)
		fprintf(out, "%sthread %u (%s): %" PRIu64 " call%s not recorded: %s\n", prefix,
			th->hdr.tid, th->hdr.comm, c->log_full, c->log_full == 1 ? "" : "s",
			full_why(tr, th, why, sizeof(why)));
	if (c->sites_full)
		fprintf(out, "%sthread %u (%s): %" PRIu64 " call%s not recorded: more than %" PRIu64
			" distinct call sites%s\n", prefix, th->hdr.tid, th->hdr.comm, c->sites_full,
			c->sites_full == 1 ? "" : "s", th->hdr.nsites,
			short_why(tr, th->hdr.nsites, KFT_SITES_CAP));
	if (c->depth_overflow)
		fprintf(out, "%sthread %u (%s): %" PRIu64 " call%s not recorded: deeper than %" PRIu64
			" calls%s\n", prefix, th->hdr.tid, th->hdr.comm, c->depth_overflow,
			c->depth_overflow == 1 ? "" : "s", th->hdr.shadow_cap,
			short_why(tr, th->hdr.shadow_cap, KFT_SHADOW_CAP));
}

static bool lost_any(const struct kft_counters *c)
{
	return c->log_full || c->sites_full || c->depth_overflow;
}

int kft_view_losses(FILE *out, const struct kft_trace *tr, const char *prefix)
{
	size_t listed = 0, more = 0;
	uint64_t more_calls = 0;

	for (size_t i = 0; i < tr->nthreads; i++) {
		const struct kft_counters *c = &tr->threads[i].hdr.counters;

		if (!lost_any(c))
			continue;
		if (listed++ < MAX_THREADS_LISTED) {
			thread_losses(out, prefix, tr, &tr->threads[i]);
		} else {
			more++;
			more_calls += c->log_full + c->sites_full + c->depth_overflow;
		}
	}
	if (more)
		fprintf(out, "%s%zu more threads: %" PRIu64 " calls not recorded\n", prefix, more,
			more_calls);
	if (tr->ctl.threads_lost)
		fprintf(out, "%s%u thread%s not traced: no log file could be made for %s%s\n",
			prefix, tr->ctl.threads_lost, tr->ctl.threads_lost == 1 ? "" : "s",
			tr->ctl.threads_lost == 1 ? "it" : "them",
			tr->ctl.disk_full ? " (no space left on the trace's file system)" : "");
	return listed || tr->ctl.threads_lost ? 1 : 0;
}
