/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The per-call common path, inlined into the hooks (hooks.c) so that a
 * hook is one call deep: a plain run that is running, outside signal
 * handlers, with room in the log. Every other case goes to events.c's
 * kft_entry_general and kft_exit_general.
 */
#ifndef KFT_EVENTS_HOT_H
#define KFT_EVENTS_HOT_H

#include "../format/control.h"
#include "runtime.h"

#define barrier() __asm__ __volatile__("" ::: "memory")
/* the per-call steps, inlined into the hooks' common path */
#define HOT_STEP static inline __attribute__((always_inline)) KFT_NOTRACE

void kft_entry_general(struct kft_tls *t, uint64_t fn, uint64_t call_site, uintptr_t sp,
		       uint64_t now) KFT_HIDDEN;
void kft_exit_general(struct kft_tls *t, uint64_t fn, uintptr_t sp, uint64_t now) KFT_HIDDEN;

/* Started, not stopped, tracing not off: calls entered now are logged. */
static inline KFT_NOTRACE bool running(uint64_t st)
{
	return (st & (KFT_STATE_TRIGGERED | KFT_STATE_COMPLETE | KFT_STATE_PAUSED)) ==
	       KFT_STATE_TRIGGERED;
}

static inline KFT_NOTRACE uint32_t gen_of(uint64_t st)
{
	return (uint32_t)(st >> KFT_STATE_GEN_SHIFT);
}

static inline KFT_NOTRACE uint64_t load_state(void)
{
	return __atomic_load_n(&kft_rt.ctl->state, __ATOMIC_ACQUIRE);
}

/* Whether the innermost open frame lies below sp: a frame a longjmp (or an
 * exception) left behind, which kft_unwind_to ends. */
HOT_STEP bool frames_left_below(const struct kft_tls *t, uintptr_t sp)
{
	uint64_t depth = t->depth;

	return depth && depth <= t->frames_cap && t->frames[depth - 1].sp < sp;
}

HOT_STEP void put_record(struct kft_tls *t, const struct kft_frame *f, uint64_t depth,
			 uint32_t dur, uint32_t flags)
{
	struct kft_thread_hdr *h = t->hdr;
	uint64_t head = h->head;
	/* (a frame's call site stays the return address -pg goes back to) */
	uint64_t call_site = unlikely(f->flags & KFT_FRAME_SIGNAL) ?
				     kft_signal_caller(t, f->call_site) : f->call_site;
	uint32_t site = kft_site_id(&t->sites, f->func, call_site);
	struct kft_rec *r;

	if (unlikely(site == KFT_SITE_NONE) &&
	    (kft_thread_grow_sites(t) ||
	     (site = kft_site_id(&t->sites, f->func, call_site)) == KFT_SITE_NONE)) {
		h->counters.sites_full++;
		if (!kft_rt.overwrite)
			h->reserved--;
		return;
	}
	if (kft_rt.overwrite) {
		if (head >= kft_rt.max_records)
			h->counters.overwritten++;
		r = &t->recs[head % kft_rt.max_records];
	} else {
		r = &t->recs[head & t->rec_mask];
	}
	kft_rec_pack(r, f->entry_ns, depth, dur, site,
		     ((f->flags & KFT_FRAME_SIGNAL) ? KFT_REC_SIGNAL : 0) | flags);
	barrier();	/* a reader after a crash sees whole records only */
	h->head = head + 1;
}

/*
 * The common case, a plain run (see kft_update_plain) that is running,
 * outside signal handlers, with room in the log, nothing left behind by
 * a longjmp and no stack watch due: the same as kft_entry_general, in
 * fewer steps. The event happened at time now.
 */
HOT_STEP void kft_event_entry(struct kft_tls *t, uint64_t fn, uint64_t call_site, uintptr_t sp,
			      uint64_t now)
{
	struct kft_thread_hdr *h = t->hdr;
	uint64_t depth = t->depth;
	uint64_t st = load_state();
	struct kft_frame *f;

	if (unlikely(!kft_rt.plain || !running(st) || t->in_signal ||
		     depth - 1 >= t->frames_cap - 1 || t->frames[depth - 1].sp < sp ||
		     sp < t->lowest_sp || sp < t->watch_sp || h->reserved >= h->capacity)) {
		kft_entry_general(t, fn, call_site, sp, now);
		return;
	}
	h->reserved++;
	f = &t->frames[depth];
	f->func = fn;
	f->call_site = call_site;
	f->entry_ns = now;
	f->sp = sp;
	f->flags = KFT_FRAME_LOGGED;
	f->gen = gen_of(st);
	barrier();
	kft_set_depth(t, depth + 1);
}

/* The common case: a logged call of a plain, running run ends, and no
 * stack watch waits to re-arm. */
HOT_STEP void kft_event_exit(struct kft_tls *t, uint64_t fn, uintptr_t sp, uint64_t now)
{
	struct kft_thread_hdr *h = t->hdr;
	uint64_t depth = t->depth;
	uint64_t st = load_state();
	const struct kft_frame *f = &t->frames[depth - 1];
	uint64_t dur;

	/* (a -pg call whose return kft took is as common: exceptions.c
	 * alone looks at that flag) */
	if (unlikely(!kft_rt.plain || !running(st) || depth - 1 >= t->frames_cap ||
		     t->watch_rearm_depth || f->func != fn ||
		     (f->flags & ~KFT_FRAME_HIJACKED) != KFT_FRAME_LOGGED ||
		     f->gen != gen_of(st))) {
		kft_exit_general(t, fn, sp, now);
		return;
	}
	kft_set_depth(t, depth - 1);
	dur = now - f->entry_ns;
	if (unlikely((kft_rt.mintime_ns && dur < kft_rt.mintime_ns) ||
		     (kft_rt.maxtime_ns && dur > kft_rt.maxtime_ns))) {
		h->counters.time_filtered++;
		h->reserved--;
		return;
	}
	put_record(t, f, depth - 1, kft_dur_encode(dur), 0);
}

#endif
