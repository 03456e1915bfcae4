// SPDX-License-Identifier: LGPL-2.1
/*
 * longjmp leaves functions without their exit hook. We see each jump on
 * its way (the program's longjmp resolves to ours first), read the target
 * stack pointer from the jmp_buf, and close every frame below it as
 * "unwound", so that the next calls nest where they really are. Return
 * addresses are never touched. Where we cannot read the jmp_buf (not
 * x86-64), the exit hook still recovers when the function that called
 * setjmp returns.
 */
#include <dlfcn.h>
#include <setjmp.h>

#include "runtime.h"

typedef void (*longjmp_fn)(struct __jmp_buf_tag *, int) __attribute__((noreturn));

#if defined(__x86_64__)
/* glibc mangles the saved registers with the thread's pointer guard. */
static KFT_NOTRACE uintptr_t target_sp(struct __jmp_buf_tag *env)
{
	uintptr_t v = (uintptr_t)env->__jmpbuf[6];
	uintptr_t guard;

	__asm__("mov %%fs:0x30, %0" : "=r"(guard));
	v = (v >> 0x11) | (v << (64 - 0x11));
	return v ^ guard;
}
#else
static KFT_NOTRACE uintptr_t target_sp(struct __jmp_buf_tag *env)
{
	(void)env;
	return 0;
}
#endif

/* A jump to stack pointer sp is under way (a longjmp, or a switch to a
 * context of getcontext's: fibers.c). */
KFT_NOTRACE void kft_jump_to(uintptr_t sp)
{
	struct kft_tls *t = &kft_tls;

	if (!sp || !t->hdr || t->busy || t->dead)
		return;
	t->busy = 1;
	/* leaving signal handlers whose frames are below the target */
	while (t->in_signal > 0 && t->in_signal <= KFT_MAX_SIGNAL_NEST &&
	       t->signal_sp[t->in_signal - 1] < sp)
		t->in_signal--;
	/*
	 * A frame's sp is the hook's frame, 16 bytes below the function's own
	 * stack pointer; the function that called setjmp sits exactly there
	 * and stays, anything it called is deeper still.
	 */
	kft_unwind_to(t, sp - 16);
	t->busy = 0;
}

#define JUMP_WRAPPER(name)							\
	KFT_EXPORT KFT_NOTRACE __attribute__((noreturn)) void name(struct __jmp_buf_tag env[1], int val) \
	{									\
		static longjmp_fn real;						\
										\
		if (!real)							\
			real = (longjmp_fn)dlsym(RTLD_NEXT, #name);		\
		kft_jump_to(target_sp(env));					\
		real(env, val);							\
	}

JUMP_WRAPPER(longjmp)
JUMP_WRAPPER(_longjmp)
JUMP_WRAPPER(siglongjmp)
JUMP_WRAPPER(__longjmp_chk)
