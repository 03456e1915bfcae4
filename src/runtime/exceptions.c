// SPDX-License-Identifier: LGPL-2.1
/*
 * C++ exceptions (and pthread_exit) through functions whose return
 * address the -pg hooks took (hooks.c): the unwinder reads each frame's
 * return address to find its caller, and would find kft's trampoline
 * ("terminate called"). Before any unwinding starts (a throw, a rethrow,
 * a forced unwind: each goes through one of the calls below), the
 * thread's return addresses are put back. When a handler catches
 * (__cxa_begin_catch), the calls the exception left are closed as
 * unwound, as after a longjmp (jumps.c), and the return addresses of the
 * calls still open are taken again.
 */
#include <dlfcn.h>
#include <unwind.h>

#include "runtime.h"

void kft_return_trampoline(void) KFT_HIDDEN;

/* The stack slot a -pg frame's return address lives in (hooks.c). */
#define RET_SLOT(f) ((uintptr_t *)((f)->sp + 16))

static KFT_NOTRACE uint64_t open_frames(const struct kft_tls *t)
{
	uint64_t depth = t->hdr->depth;

	return depth < t->frames_cap ? depth : t->frames_cap;
}

static KFT_NOTRACE void give_back(void)
{
	struct kft_tls *t = &kft_tls;

	if (!kft_rt.hijacked || !t->hdr || t->dead)
		return;
	for (uint64_t i = open_frames(t); i-- > 0;) {
		const struct kft_frame *f = &t->frames[i];

		if ((f->flags & KFT_FRAME_HIJACKED) &&
		    *RET_SLOT(f) == (uintptr_t)kft_return_trampoline)
			*RET_SLOT(f) = f->call_site;
	}
}

typedef _Unwind_Reason_Code (*raise_fn)(struct _Unwind_Exception *);
typedef _Unwind_Reason_Code (*forced_fn)(struct _Unwind_Exception *, _Unwind_Stop_Fn, void *);
typedef void *(*catch_fn)(void *);

/* A throw, and a rethrow: the return addresses back first. */
#define RAISE_WRAPPER(name)							\
	KFT_EXPORT KFT_NOTRACE _Unwind_Reason_Code name(struct _Unwind_Exception *e)	\
	{									\
		static raise_fn real;						\
										\
		if (!real)							\
			real = (raise_fn)dlsym(RTLD_NEXT, #name);		\
		give_back();							\
		return real(e);							\
	}

RAISE_WRAPPER(_Unwind_RaiseException)
RAISE_WRAPPER(_Unwind_Resume_or_Rethrow)

KFT_EXPORT KFT_NOTRACE _Unwind_Reason_Code _Unwind_ForcedUnwind(struct _Unwind_Exception *e,
								_Unwind_Stop_Fn stop, void *arg)
{
	static forced_fn real;

	if (!real)
		real = (forced_fn)dlsym(RTLD_NEXT, "_Unwind_ForcedUnwind");
	give_back();
	return real(e, stop, arg);
}

/* In the handler: what lies below its frame was unwound. */
KFT_EXPORT KFT_NOTRACE void *__cxa_begin_catch(void *exc)
{
	static catch_fn real;
	struct kft_tls *t = &kft_tls;

	if (!real)
		real = (catch_fn)dlsym(RTLD_NEXT, "__cxa_begin_catch");
	if (t->hdr && !t->busy && !t->dead) {
		t->busy = 1;
		/* the handler's stack pointer is 16 bytes above this frame; a
		 * frame's sp is 16 below its function's (hooks.c) */
		kft_unwind_to(t, (uintptr_t)__builtin_frame_address(0));
		if (kft_rt.hijacked)
			for (uint64_t i = open_frames(t); i-- > 0;) {
				const struct kft_frame *f = &t->frames[i];

				if ((f->flags & KFT_FRAME_HIJACKED) && *RET_SLOT(f) == f->call_site)
					*RET_SLOT(f) = (uintptr_t)kft_return_trampoline;
			}
		t->busy = 0;
	}
	return real ? real(exc) : exc;
}
