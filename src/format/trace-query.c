// SPDX-License-Identifier: GPL-2.0-only
/*
 * What an opened trace and its thread files say (reader.h): its run
 * state and time base, damaged and unfinished calls, whether a file
 * holds kernel calls, one call of a file as the call streams read it.
 * reader.c opens and closes; these only read what it opened.
 */
#include "reader.h"
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

void kft_thread_call(const struct kft_thread_file *th, uint64_t i, uint32_t depth,
		     struct kft_call *c)
{
	if (i < th->nrecs) {
		struct kft_rec_data r;

		kft_thread_rec(th, i, &r);
		if (depth == KFT_DEPTH_RECORDED)
			depth = r.depth;
		c->entry_ns = r.entry_ns;
		c->dur_ns = kft_dur_decode(r.dur);
		c->func = r.func;
		c->call_site = r.call_site;
		c->flags = r.flags;
	} else if (i >= th->nrecs + th->nframes) {
		struct kft_rec_data r;

		kft_thread_inherited(th, i - th->nrecs - th->nframes, &r);
		if (depth == KFT_DEPTH_RECORDED)
			depth = r.depth;
		c->entry_ns = 0;	/* the call source's: the walk finds when */
		c->dur_ns = -1;
		c->func = r.func;
		c->call_site = r.call_site;
		c->flags = r.flags | KFT_CALL_INHERITED;
	} else {
		const struct kft_frame *fr = &th->frames[i - th->nrecs];

		if (depth == KFT_DEPTH_RECORDED)
			depth = (uint32_t)(i - th->nrecs);
		c->entry_ns = fr->entry_ns;
		c->dur_ns = -1;
		c->func = fr->func;
		c->call_site = fr->call_site;
		c->flags = kft_frame_rec_flags(fr);
	}
	c->depth = depth;
	c->tid = th->hdr.tid;
	c->pid = th->hdr.pid;
	c->session = th->hdr.session;
	c->coroutine = (uint32_t)th->hdr.coroutine;
	c->map_session = i >= th->nrecs + th->nframes ? th->inherited_map : c->session;
}
