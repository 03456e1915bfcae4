// SPDX-License-Identifier: GPL-2.0-only
/*
 * What an opened trace and its thread files say (reader.h): its run
 * state and time base, damaged and unfinished calls, whether a file
 * holds kernel calls. reader.c opens and closes; these only read what
 * it opened (a record itself: thread-records.h).
 */
#include "reader.h"
#include "thread-records.h"
#include "zreader.h"

uint64_t kft_trace_damaged(const struct kft_trace *tr)
{
	uint64_t n = 0;

	for (size_t i = 0; i < tr->nthreads; i++)
		if (tr->threads[i].z)
			n += kft_zrecs_damaged(tr->threads[i].z);
	return n;
}

uint64_t kft_trace_unfinished(const struct kft_trace *tr)
{
	uint64_t n = tr->nopen;

	for (size_t i = 0; i < tr->nthreads; i++)
		for (uint64_t k = 0; k < tr->threads[i].nrecs; k++) {
			struct kft_rec_data r;

			kft_thread_rec(&tr->threads[i], k, &r);
			n += r.dur == KFT_DUR_UNFINISHED;
		}
	return n;
}

bool kft_trace_primed(const struct kft_trace *tr)
{
	return tr->ctl.state & KFT_STATE_PRIMED;
}

uint64_t kft_trace_base_ns(const struct kft_trace *tr)
{
	return tr->ctl.first_start_ns == UINT64_MAX ? 0 : tr->ctl.first_start_ns;
}

bool kft_trace_triggered(const struct kft_trace *tr)
{
	return tr->ctl.state & KFT_STATE_TRIGGERED;
}

bool kft_trace_complete(const struct kft_trace *tr)
{
	return (tr->ctl.state & KFT_STATE_COMPLETE) || tr->ctl.ended_ns;
}

/* A kernel thread file holds kernel calls only: its first one tells. */
bool kft_thread_is_kernel(const struct kft_thread_file *th)
{
	if (th->nrecs) {
		struct kft_rec_data r;

		kft_thread_rec(th, 0, &r);
		return r.flags & KFT_REC_KERNEL;
	}
	return th->nframes && (th->frames[0].flags & KFT_FRAME_KERNEL);
}

bool kft_trace_mixes_kernel(const struct kft_trace *tr)
{
	for (size_t i = 0; i < tr->nthreads; i++) {
		if (!kft_thread_is_kernel(&tr->threads[i]))
			continue;
		for (size_t j = 0; j < tr->nthreads; j++)
			if (tr->threads[j].hdr.tid == tr->threads[i].hdr.tid &&
			    !kft_thread_is_kernel(&tr->threads[j]))
				return true;
	}
	return false;
}

