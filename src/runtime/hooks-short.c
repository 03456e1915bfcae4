// SPDX-License-Identifier: LGPL-2.1
/*
 * Every hook's short path: a plain run (kft_update_plain) that is
 * running, outside signal handlers, with room in the log, nothing left
 * behind by a longjmp, no stack watch due, and at exit a call site the
 * thread's table has already. Any other case turns back before it has
 * changed anything and goes the whole way (hooks.c).
 *
 * Built with -mgeneral-regs-only (Makefile): these never touch a vector
 * register, so the -pg stubs and the return trampoline save the
 * program's vector registers only for the whole path, which may call
 * anything. The -finstrument-functions hooks end in a jump to the whole
 * path instead (a C call may take the vector registers anyway), so that
 * they need no frame of their own.
 */
#include "events-hot.h"
#include "pg-entry.h"

/* Whether a call that took dur is dropped for its time (filter mintime,
 * maxtime): one compare, right in a plain run (kft_update_plain). */
HOT_STEP bool time_filtered(uint64_t dur)
{
	return dur - kft_rt.mintime_ns > kft_rt.time_span;
}

/* End the call at depth - 1, dropped for its time: its slot in the log
 * goes back. */
HOT_STEP void drop_short(struct kft_tls *t, uint64_t depth)
{
	struct kft_thread_hdr *h = t->hdr;

	kft_set_depth(t, depth - 1);
	h->counters.time_filtered++;
	h->reserved--;
}

/* End the call in frame f, at depth - 1: its record (site, dur) is written. */
HOT_STEP void end_short(struct kft_tls *t, const struct kft_frame *f, uint64_t depth,
			uint64_t dur, uint32_t site)
{
	struct kft_thread_hdr *h = t->hdr;
	uint64_t head;

	kft_set_depth(t, depth - 1);
	head = h->head;
	kft_rec_pack(&t->recs[head & t->rec_mask], f->entry_ns, depth - 1, kft_dur_encode(dur), site, 0);
	barrier();	/* a reader after a crash sees whole records only */
	h->head = head + 1;
}

/* Whether a call entered now, at sp, may open a frame the short way: a
 * running run, outside signal handlers, room in the log and the shadow
 * stack, nothing below sp left by a longjmp, no watch due. */
HOT_STEP bool short_entry_ok(struct kft_tls *t, uint64_t st, uint64_t depth, uintptr_t sp)
{
	struct kft_thread_hdr *h = t->hdr;

	return running(st) && !t->in_signal && depth - 1 < t->frames_cap - 1 &&
	       t->frames[depth - 1].sp >= sp && sp >= t->sp_floor && h->reserved < h->capacity;
}

/* Push the frame of a logged call (flags: KFT_FRAME_LOGGED and more). */
HOT_STEP void push_short(struct kft_tls *t, uint64_t depth, uint64_t st, uintptr_t fn,
			 uintptr_t call_site, uintptr_t sp, uint64_t ticks, uint32_t flags)
{
	struct kft_frame *f = &t->frames[depth];

	t->hdr->reserved++;
	f->func = fn;
	f->call_site = call_site;
	f->entry_ns = kft_tsc_time(ticks);
	f->sp = sp;
	f->flags = flags;
	f->gen = gen_of(st);
	barrier();
	kft_set_depth(t, depth + 1);
}

/* ---- -finstrument-functions (hooks-x86_64.S jumps here, untimed) -------- */

KFT_HIDDEN KFT_NOTRACE void kft_cyg_enter_short(void *fn, void *call_site, uint64_t ticks,
						uintptr_t sp)
{
	struct kft_tls *t = &kft_tls;
	uint64_t st, depth;

	if (unlikely(t->busy || t->dead || !t->hdr || !kft_rt.plain))
		goto whole;
	t->busy = 1;	/* before the checks: a signal's hooks wait */
	st = load_state();
	depth = t->depth;
	/* (the frame's sp is the hook's: an inlined function's hooks run at
	 * their caller's, and equal is no sign of a longjmp) */
	if (unlikely(!short_entry_ok(t, st, depth, sp))) {
		t->busy = 0;
		goto whole;
	}
	push_short(t, depth, st, (uintptr_t)fn, (uintptr_t)call_site, sp, ticks,
		   KFT_FRAME_LOGGED);
	barrier();
	t->busy = 0;
	return;
whole:
	kft_cyg_enter(fn, call_site, ticks, sp);
}

KFT_HIDDEN KFT_NOTRACE void kft_cyg_exit_short(void *fn, void *call_site, uint64_t ticks,
					       uintptr_t sp)
{
	struct kft_tls *t = &kft_tls;
	const struct kft_frame *f;
	uint64_t st, depth, dur;
	uint32_t site;

	if (unlikely(t->busy || t->dead || !t->hdr || !kft_rt.plain))
		goto whole;
	t->busy = 1;
	st = load_state();
	depth = t->depth;
	f = &t->frames[depth - 1];
	if (unlikely(!running(st) || depth - 1 >= t->frames_cap || t->watch_rearm_depth ||
		     f->func != (uintptr_t)fn || f->call_site != (uintptr_t)call_site ||
		     f->flags != KFT_FRAME_LOGGED || f->gen != gen_of(st)))
		goto turn_back;
	dur = kft_tsc_time(ticks) - f->entry_ns;
	/* (from the arguments, not the frame: the lookup need not wait for
	 * the frame's load) */
	site = kft_site_find(&t->sites, (uintptr_t)fn, (uintptr_t)call_site);
	if (unlikely(time_filtered(dur)))
		drop_short(t, depth);
	else if (likely(site != KFT_SITE_NONE))
		end_short(t, f, depth, dur, site);
	else
		goto turn_back;	/* a new site: the whole path adds it */
	barrier();
	t->busy = 0;
	return;
turn_back:
	t->busy = 0;
whole:
	kft_cyg_exit(fn, call_site, ticks, sp);
}

/* ---- -pg and -pg -mfentry (mcount-x86_64.S calls these first) ----------- */

/* kft_pg_entry's short path: 1 if the call was taken, 0 if the stub must
 * go the whole way. */
KFT_HIDDEN KFT_NOTRACE int kft_pg_entry_short(uintptr_t ip, uintptr_t *ret_loc, int fentry,
					      uint64_t ticks)
{
	struct kft_tls *t = &kft_tls;
	uintptr_t start, call_site;
	uint64_t st, depth;

	if (unlikely(t->busy || t->dead || !t->hdr || !kft_rt.plain || !kft_rt.hijacked))
		return 0;
	start = pg_function_start(ip, fentry, &ret_loc);
	/* functions the config names (a start trigger's, the args
	 * statement's): found as the whole path finds them, and one whose
	 * arguments or return value are saved goes the whole way */
	if (unlikely(__atomic_load_n(&kft_rt.nranges, __ATOMIC_RELAXED))) {
		start = kft_config_func_at(start);
		if (__atomic_load_n(&kft_rt.nargs, __ATOMIC_RELAXED) && kft_args_of(start))
			return 0;
	}
	call_site = *ret_loc;
	t->busy = 1;
	st = load_state();
	depth = t->depth;
	/* (no two open calls share a return address slot: a frame at this
	 * one's sp was left by a longjmp; a sibling call finds ours there) */
	if (unlikely(call_site == (uintptr_t)kft_return_trampoline ||
		     !short_entry_ok(t, st, depth, PG_SP(ret_loc)) ||
		     t->frames[depth - 1].sp == PG_SP(ret_loc))) {
		t->busy = 0;
		return 0;
	}
	push_short(t, depth, st, start, call_site, PG_SP(ret_loc), ticks,
		   KFT_FRAME_LOGGED | KFT_FRAME_HIJACKED);
	*ret_loc = (uintptr_t)kft_return_trampoline;
	barrier();
	t->busy = 0;
	return 1;
}

/* kft_pg_exit's short path, for a function that returned into the
 * trampoline with the stack at sp: where it was going, or 0 if the
 * trampoline must go the whole way. */
KFT_HIDDEN KFT_NOTRACE uintptr_t kft_pg_exit_short(uintptr_t sp, uint64_t ticks)
{
	struct kft_tls *t = &kft_tls;
	const struct kft_frame *f;
	uint64_t st, depth, dur;
	uintptr_t back;
	uint32_t site;

	if (unlikely(t->busy || t->dead || !t->hdr || !kft_rt.plain))
		return 0;
	t->busy = 1;
	st = load_state();
	depth = t->depth;
	f = &t->frames[depth - 1];
	if (unlikely(!running(st) || depth - 1 >= t->frames_cap || t->watch_rearm_depth ||
		     f->sp != PG_SP(sp - sizeof(uintptr_t)) ||
		     f->flags != (KFT_FRAME_LOGGED | KFT_FRAME_HIJACKED) || f->gen != gen_of(st)))
		goto turn_back;
	dur = kft_tsc_time(ticks) - f->entry_ns;
	site = kft_site_find(&t->sites, f->func, f->call_site);
	back = f->call_site;
	if (unlikely(time_filtered(dur)))
		drop_short(t, depth);
	else if (likely(site != KFT_SITE_NONE))
		end_short(t, f, depth, dur, site);
	else
		goto turn_back;
	barrier();
	t->busy = 0;
	return back;
turn_back:
	t->busy = 0;
	return 0;
}
