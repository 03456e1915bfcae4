// SPDX-License-Identifier: LGPL-2.1
/*
 * The compiler's entry points into kft. -finstrument-functions calls
 * __cyg_profile_func_enter/exit with the function and its call site; on
 * x86-64 those are hooks-x86_64.S, which read the clock at their first
 * instruction and, with --compensate, at their last, and call the C side
 * here. The guard keeps us from tracing ourselves (a hook that fires
 * inside a hook, say from a signal handler, is ignored) and errno is
 * never touched on the common path; the rare set-up path saves it.
 */
#include <errno.h>

#include "events-hot.h"
#include "vector-state.h"

struct kft_runtime kft_rt;
int kft_hooks_timed;
__thread struct kft_tls kft_tls __attribute__((tls_model("initial-exec")));

/* The first event of a thread (or of the process): set up, keep errno
 * and the vector registers (vector-state.h). */
static KFT_NOTRACE __attribute__((noinline)) int slow_setup(struct kft_tls *t)
{
	struct kft_vec_keep vec;
	int saved = errno;
	int ret = -1, ready;

	kft_vec_keep(&vec);
	if (!kft_rt.ready)
		kft_runtime_init();
	ready = __atomic_load_n(&kft_rt.ready, __ATOMIC_ACQUIRE);
	if (ready == 1 && !kft_thread_setup(t))
		ret = 0;
	else if (ready != 2)
		t->dead = 1;	/* no trace for this thread: stop trying */
	/* (2: kft_attach is still setting up in another thread: later) */
	errno = saved;
	kft_vec_give_back(&vec);
	return ret;
}

/* A hook may go on (false: it does nothing); *ticks, the clock at its
 * first instruction, is read again after a set-up, which is no call's. */
static inline KFT_NOTRACE bool enter_hook(struct kft_tls *t, uint64_t *ticks)
{
	if (unlikely(t->busy || t->dead))
		return false;
	t->busy = 1;
	if (unlikely(!t->hdr)) {
		if (slow_setup(t)) {
			t->busy = 0;
			return false;
		}
		*ticks = kft_ticks();
	}
	return true;
}

/*
 * A hook began: ticks is the clock at its first instruction (the TSC, as
 * the assembly read it; kft_ticks() elsewhere). Its time; with
 * --compensate, the thread's hook time now holds the hook before it.
 */
static inline KFT_NOTRACE uint64_t hook_began(struct kft_tls *t, uint64_t ticks)
{
#if defined(__x86_64__)
	if (unlikely(!kft_clock.use_tsc))
		ticks = kft_clock_slow();
#endif
	if (unlikely(kft_hooks_timed)) {
		/* (a signal's hooks between a hook's end and its store of it
		 * find hook_end behind hook_start: nothing to add) */
		if (t->hook_end > t->hook_start)
			t->hook_ticks += ((t->hook_end - t->hook_start) << KFT_HOOK_SHIFT) +
					 kft_rt.unseen_gap;
		t->hook_start = ticks;
	}
	return kft_tick_time(ticks);
}

/* A hook is done: with --compensate, where its last instructions store
 * the clock (NULL: nowhere, it is stored here) */
static inline KFT_NOTRACE uint64_t *hook_done(struct kft_tls *t)
{
	t->busy = 0;
	if (likely(!kft_hooks_timed))
		return NULL;
#if defined(__x86_64__)
	if (unlikely(!kft_clock.use_tsc)) {
		t->hook_end = kft_clock_slow();
		return NULL;
	}
#endif
	return &t->hook_end;
}

/* The C side of __cyg_profile_func_enter: sp is where the hook's frame
 * pointer would be (16 bytes below the function's stack pointer, which
 * the longjmp code relies on). */
KFT_HIDDEN KFT_NOTRACE uint64_t *kft_cyg_enter(void *fn, void *call_site, uint64_t ticks,
					       uintptr_t sp)
{
	struct kft_tls *t = &kft_tls;

	if (!enter_hook(t, &ticks))
		return NULL;
	kft_event_entry(t, (uintptr_t)fn, (uintptr_t)call_site, sp, hook_began(t, ticks));
	return hook_done(t);
}

KFT_HIDDEN KFT_NOTRACE uint64_t *kft_cyg_exit(void *fn, void *call_site, uint64_t ticks,
					      uintptr_t sp)
{
	struct kft_tls *t = &kft_tls;

	(void)call_site;
	if (!enter_hook(t, &ticks))
		return NULL;
	kft_event_exit(t, (uintptr_t)fn, sp, hook_began(t, ticks));
	return hook_done(t);
}

#if !defined(__x86_64__)
KFT_EXPORT KFT_NOTRACE void __cyg_profile_func_enter(void *fn, void *call_site)
{
	uint64_t *end = kft_cyg_enter(fn, call_site, kft_ticks(),
				      (uintptr_t)__builtin_frame_address(0));

	if (end)
		*end = kft_ticks();
}

KFT_EXPORT KFT_NOTRACE void __cyg_profile_func_exit(void *fn, void *call_site)
{
	uint64_t *end = kft_cyg_exit(fn, call_site, kft_ticks(),
				     (uintptr_t)__builtin_frame_address(0));

	if (end)
		*end = kft_ticks();
}
#endif

/* ---- -pg and -pg -mfentry (mcount-x86_64.S), library calls (plt.c) ------- */

#include "pg-entry.h"

/*
 * A call of start entered now whose return address, at ret_loc, kft
 * takes (the -pg hooks, library calls): kft_return_trampoline ends it.
 */
static inline KFT_NOTRACE void take_return(struct kft_tls *t, uintptr_t start,
					   uintptr_t *ret_loc, uint64_t now)
{
	uintptr_t call_site = *ret_loc;
	uint64_t depth = t->hdr->depth;

	if (call_site == (uintptr_t)kft_return_trampoline) {
		/* a sibling call: the function owning this return address jumped
		 * here; it ends now and this one returns in its place */
		const struct kft_frame *f;

		if (!depth || depth > t->frames_cap ||
		    (f = &t->frames[depth - 1])->sp != PG_SP(ret_loc))
			return;
		call_site = f->call_site;
		kft_event_exit(t, f->func, PG_SP(ret_loc), now);
		depth = t->hdr->depth;
	}
	/* no two open calls share a return address slot: one at this slot
	 * or below it was left by a longjmp */
	if (frames_left_below(t, PG_SP(ret_loc) + 1) && !t->in_signal) {
		kft_unwind_to(t, PG_SP(ret_loc) + 1);
		depth = t->hdr->depth;
	}
	/* the return address is kept on the shadow stack: no room, no trace
	 * (a sibling call above leaves its frame's address in place) */
	if (depth > t->frames_cap || (depth == t->frames_cap && !kft_thread_more_frames(t))) {
		if (call_site != *ret_loc)
			*ret_loc = call_site;
		return;
	}
	kft_event_entry(t, start, call_site, PG_SP(ret_loc), now);
	depth = t->hdr->depth;
	if (depth && depth <= t->frames_cap)
		t->frames[depth - 1].flags |= KFT_FRAME_HIJACKED;	/* exceptions.c */
	*ret_loc = (uintptr_t)kft_return_trampoline;
	if (unlikely(!kft_rt.hijacked))
		kft_rt.hijacked = true;	/* once: a line every thread reads */
}

/* The arguments of the call of start just taken at time now, if the
 * config asks for them; area, frame and below: where the stub saved them
 * (kft_stub_args); ret_loc: where its return address lies. */
static inline KFT_NOTRACE void save_args(struct kft_tls *t, uint64_t now, uintptr_t start,
					 const uint64_t *area, const uint64_t *frame,
					 size_t below, const uintptr_t *ret_loc)
{
	struct kft_arg_regs regs;

	if (likely(!__atomic_load_n(&kft_rt.nargs, __ATOMIC_RELAXED)))
		return;
	kft_stub_args(area, frame, below, ret_loc, &regs);
	kft_args_entered(t, now, start, &regs);
}

/* ticks: the clock at the hook's first instruction; area and frame: the
 * argument registers as the stub saved them (kft_stub_args). Returns
 * where its last ones store the clock, or NULL (hook_done). */
KFT_HIDDEN KFT_NOTRACE uint64_t *kft_pg_entry(uintptr_t ip, uintptr_t *ret_loc, int fentry,
					      uint64_t ticks, const uint64_t *area,
					      const uint64_t *frame)
{
	struct kft_tls *t = &kft_tls;
	uintptr_t start = pg_function_start(ip, fentry, &ret_loc);
	uint64_t now;

	if (!enter_hook(t, &ticks))
		return NULL;
	if (unlikely(__atomic_load_n(&kft_rt.nranges, __ATOMIC_RELAXED)))
		start = kft_config_func_at(start);
	now = hook_began(t, ticks);
	take_return(t, start, ret_loc, now);
	save_args(t, now, start, area, frame, KFT_PG_XMM_BELOW, ret_loc);
	return hook_done(t);
}

/* Where a library call goes on to, and where the stub's last
 * instructions store the clock (NULL: nowhere): two registers */
struct kft_plt_go {
	uintptr_t to;
	uint64_t *end;
};

/* A library call through GOT slot n (plt.c, plt-x86_64.S): ret_loc is
 * where its return address lies, ticks the clock at the stub's start. */
KFT_HIDDEN KFT_NOTRACE struct kft_plt_go kft_plt_entry(uint64_t n, uintptr_t *ret_loc,
						       uint64_t ticks, const uint64_t *area,
						       const uint64_t *frame)
{
	struct kft_tls *t = &kft_tls;
	struct kft_plt_go go = { kft_plt_target(n), NULL };
	uint64_t now;

	if (!enter_hook(t, &ticks))
		return go;
	now = hook_began(t, ticks);
	take_return(t, kft_plt_func(n), ret_loc, now);
	save_args(t, now, kft_plt_func(n), area, frame, KFT_STUB_XMM_BELOW, ret_loc);
	go.end = hook_done(t);
	return go;
}

/* Where kft_return_trampoline goes on to, and where its last
 * instructions store the clock (NULL: nowhere): two registers */
struct kft_pg_back {
	uintptr_t to;
	uint64_t *end;
};

/* A function whose return address we took returns: end its call and say
 * where it was going. sp is the stack as it left it, ticks the clock at
 * the trampoline's first instruction, retval what it returns (rax, and
 * at fpret xmm0's low word). The guard is not tested: the return address
 * was ours, the call must end whatever runs. */
KFT_HIDDEN KFT_NOTRACE struct kft_pg_back kft_pg_exit(uintptr_t sp, uint64_t ticks,
						      uint64_t retval, const uint64_t *fpret)
{
	struct kft_tls *t = &kft_tls;
	uintptr_t ret_loc = sp - sizeof(uintptr_t);
	int busy = t->busy;
	const struct kft_frame *f;
	struct kft_pg_back back = { 0, NULL };
	uint64_t now;

	t->busy = 1;
	now = busy ? kft_now() : hook_began(t, ticks);
	/* frames a longjmp left behind (asked here: every return asks) */
	if (unlikely(frames_left_below(t, PG_SP(ret_loc)) ||
		     t->watch_rearm_depth > t->hdr->depth))
		kft_unwind_to(t, PG_SP(ret_loc));
	f = &t->frames[t->hdr->depth - 1];
	back.to = f->call_site;
	if (unlikely(__atomic_load_n(&kft_rt.nargs, __ATOMIC_RELAXED)))
		kft_args_leaving(t, f, retval, fpret);
	kft_event_exit(t, f->func, PG_SP(ret_loc), now);
	if (busy)
		return back;
	back.end = hook_done(t);
	return back;
}
