// SPDX-License-Identifier: GPL-2.0-only
#include "thread-records.h"

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
