// SPDX-License-Identifier: LGPL-2.1
/*
 * The compiler's entry points into kft. -finstrument-functions calls
 * __cyg_profile_func_enter/exit with the function and its call site. The
 * guard keeps us from tracing ourselves (a hook that fires inside a hook,
 * say from a signal handler, is ignored) and errno is never touched on
 * the common path; the rare set-up path saves it.
 */
#include <errno.h>

#include "runtime.h"

struct kft_runtime kft_rt;
__thread struct kft_tls kft_tls __attribute__((tls_model("initial-exec")));

/* The first event of a thread (or of the process): set up, keep errno. */
static KFT_NOTRACE __attribute__((noinline)) int slow_setup(struct kft_tls *t)
{
	int saved = errno;
	int ret = -1, ready;

	if (!kft_rt.ready)
		kft_runtime_init();
	ready = __atomic_load_n(&kft_rt.ready, __ATOMIC_ACQUIRE);
	if (ready == 1 && !kft_thread_setup(t))
		ret = 0;
	else if (ready != 2)
		t->dead = 1;	/* no trace for this thread: stop trying */
	/* (2: kft_attach is still setting up in another thread: later) */
	errno = saved;
	return ret;
}

static inline KFT_NOTRACE bool enter_hook(struct kft_tls *t)
{
	if (unlikely(t->busy || t->dead))
		return false;
	t->busy = 1;
	if (unlikely(!t->hdr) && slow_setup(t)) {
		t->busy = 0;
		return false;
	}
	return true;
}

KFT_EXPORT KFT_NOTRACE void __cyg_profile_func_enter(void *fn, void *call_site)
{
	struct kft_tls *t = &kft_tls;

	if (!enter_hook(t))
		return;
	kft_event_entry(t, (uintptr_t)fn, (uintptr_t)call_site,
			(uintptr_t)__builtin_frame_address(0));
	t->busy = 0;
}

KFT_EXPORT KFT_NOTRACE void __cyg_profile_func_exit(void *fn, void *call_site)
{
	struct kft_tls *t = &kft_tls;

	(void)call_site;
	if (!enter_hook(t))
		return;
	kft_event_exit(t, (uintptr_t)fn, (uintptr_t)__builtin_frame_address(0));
	t->busy = 0;
}

/* ---- -pg and -pg -mfentry (mcount-x86_64.S) ----------------------------- */

void kft_return_trampoline(void) KFT_HIDDEN;

/*
 * A frame's sp: with -finstrument-functions it is the hook's frame, 16
 * bytes below the stack pointer of the function (which the longjmp code
 * relies on); here it is made the same from where the return address is.
 */
#define PG_SP(ret_loc) ((uintptr_t)(ret_loc) - 16)

/*
 * The function's first byte, from the address after the call to the hook:
 * the call ("e8 rel32", or "ff 15 disp32" through the GOT) is the first
 * instruction with -mfentry and follows "push %rbp; mov %rsp,%rbp" (and
 * perhaps "sub $n,%rsp") with -pg; an endbr64 may come first. Another
 * prologue leaves ip as it is: it still names the function, and
 * kft_config_func_at() maps it to a configured function's start.
 */
static inline KFT_NOTRACE uintptr_t pg_function_start(uintptr_t ip, int fentry)
{
	const unsigned char *p = (const unsigned char *)ip;
	const unsigned char *c;

	if (p[-6] == 0xff && p[-5] == 0x15)
		c = p - 6;
	else if (p[-5] == 0xe8)
		c = p - 5;
	else
		return ip;
	if (!fentry) {
		/* gcc may make room for locals first: sub $imm8 or $imm32, %rsp */
		if (c[-4] == 0x48 && c[-3] == 0x83 && c[-2] == 0xec)
			c -= 4;
		else if (c[-7] == 0x48 && c[-6] == 0x81 && c[-5] == 0xec)
			c -= 7;
		if (c[-4] != 0x55 || c[-3] != 0x48 || c[-2] != 0x89 || c[-1] != 0xe5)
			return ip;
		c -= 4;
	}
	if (c[-4] == 0xf3 && c[-3] == 0x0f && c[-2] == 0x1e && c[-1] == 0xfa)
		c -= 4;		/* endbr64 */
	return (uintptr_t)c;
}

KFT_HIDDEN KFT_NOTRACE void kft_pg_entry(uintptr_t ip, uintptr_t *ret_loc, int fentry)
{
	struct kft_tls *t = &kft_tls;
	uintptr_t call_site = *ret_loc;
	uint64_t depth;

	if (!enter_hook(t))
		return;
	depth = t->hdr->depth;
	if (call_site == (uintptr_t)kft_return_trampoline) {
		/* a sibling call: the function owning this return address jumped
		 * here; it ends now and this one returns in its place */
		const struct kft_frame *f;

		if (!depth || depth > t->frames_cap ||
		    (f = &t->frames[depth - 1])->sp != PG_SP(ret_loc)) {
			t->busy = 0;
			return;
		}
		call_site = f->call_site;
		kft_event_exit(t, f->func, PG_SP(ret_loc));
		depth = t->hdr->depth;
	}
	/* with -pg no two open calls share a return address slot: one at
	 * this slot or below it was left by a longjmp */
	if (depth && depth <= t->frames_cap && t->frames[depth - 1].sp <= PG_SP(ret_loc) &&
	    !t->in_signal) {
		kft_unwind_to(t, PG_SP(ret_loc) + 1);
		depth = t->hdr->depth;
	}
	/* the return address is kept on the shadow stack: no room, no trace
	 * (a sibling call above leaves its frame's address in place) */
	if (depth > t->frames_cap || (depth == t->frames_cap && !kft_thread_more_frames(t))) {
		if (call_site != *ret_loc)
			*ret_loc = call_site;
		t->busy = 0;
		return;
	}
	kft_event_entry(t, kft_config_func_at(pg_function_start(ip, fentry)), call_site,
			PG_SP(ret_loc));
	depth = t->hdr->depth;
	if (depth && depth <= t->frames_cap)
		t->frames[depth - 1].flags |= KFT_FRAME_HIJACKED;	/* exceptions.c */
	*ret_loc = (uintptr_t)kft_return_trampoline;
	kft_rt.hijacked = true;
	t->busy = 0;
}

/* A function whose return address we took returns: end its call and say
 * where it was going. sp is the stack as it left it. */
KFT_HIDDEN KFT_NOTRACE uintptr_t kft_pg_exit(uintptr_t sp)
{
	struct kft_tls *t = &kft_tls;
	uintptr_t ret_loc = sp - sizeof(uintptr_t);
	int busy = t->busy;
	const struct kft_frame *f;
	uintptr_t back;

	t->busy = 1;
	kft_unwind_to(t, PG_SP(ret_loc));	/* frames a longjmp left behind */
	f = &t->frames[t->hdr->depth - 1];
	back = f->call_site;
	kft_event_exit(t, f->func, PG_SP(ret_loc));
	t->busy = busy;
	return back;
}
