/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * -pg and -pg -mfentry: the compiler calls mcount (after the prologue,
 * frame pointer set) or __fentry__ (first instruction) at every function
 * entry, and nothing at exit. These save the argument registers, hand
 * the C side the address the function was entered at and where its
 * return address lies; the C side may point that return address at
 * kft_return_trampoline, which reports the exit and goes on to the real
 * return address with the return value registers intact.
 */
#if defined(__x86_64__)
#include "hook-stub-x86_64.h"
	.text

/*
 * The short path first (hooks-short.c, which touches no vector register:
 * only the integer argument registers are saved for it); if it turns
 * back, the whole one, with the vector registers saved too. The whole
 * path's return value (rax) says where to store the clock as the stub
 * ends (--compensate), or NULL. The clock is read first thing and last
 * thing: rax and rdx, which rdtsc takes, are saved before the rest and
 * restored after it. r11 is nobody's argument: it is not kept.
 */
.macro PG_ARGS kind
	.if \kind == 2
	/* kft_dyn_entry's: above its return address (24), the r11 it saved
	 * and where the trampoline slot's call returns to, which names the
	 * function (format/patch-plan.h) */
	movq	40(%rbx), %rdi
	andq	$-64, %rdi
	movq	56(%rdi), %rdi
	leaq	48(%rbx), %rsi
	.else
	movq	24(%rbx), %rdi		/* ip: just after the call to us */
	.if \kind
	leaq	32(%rbx), %rsi		/* the traced function's return address */
	.else
	leaq	8(%rbp), %rsi		/* the frame pointer is set up already */
	.endif
	.endif
	movl	$\kind, %edx
.endm

.macro ENTRY_STUB kind
	pushq	%rax
	pushq	%rdx
	READ_CLOCK
	pushq	%rbx
	movq	%rsp, %rbx		/* 0: rbx, 8: rdx, 16: rax, 24: ip after the call */
	andq	$-16, %rsp
	SAVE_INT_ARGS
	pushq	%rax			/* the clock again, for the whole path */
	subq	$8, %rsp
	movq	%rax, %rcx
	PG_ARGS \kind
	call	kft_pg_entry_short
	xorl	%r11d, %r11d
	testl	%eax, %eax
	jnz	2f
	SAVE_VECTOR_ARGS
	movq	136(%rsp), %rcx		/* the clock */
	PG_ARGS \kind
	leaq	144(%rsp), %r8		/* the saved argument registers */
	movq	%rbx, %r9
	SAVE_XMM8_15
	call	kft_pg_entry
	movq	%rax, %r11
	RESTORE_XMM8_15
	RESTORE_VECTOR_ARGS
2:	addq	$16, %rsp
	RESTORE_INT_ARGS
	movq	%rbx, %rsp
	popq	%rbx
	STORE_CLOCK_AT %r11
	popq	%rdx
	popq	%rax
	ret
.endm

/*
 * The compiler may call the hooks with the stack not 16-byte aligned (gcc
 * -pg at -O0 does): rbx keeps the stack as we found it, and the C side
 * runs on an aligned one.
 */
	.globl	__fentry__
	.type	__fentry__, @function
/* kft_fentry: the same, for our own stubs; a library loaded late (kft
 * record -p) would find __fentry__ in the C library first */
	.globl	kft_fentry
	.hidden	kft_fentry
	.type	kft_fentry, @function
__fentry__:
kft_fentry:
	ENTRY_STUB 1
	.size	__fentry__, .-__fentry__

/*
 * kft_dyn_entry: for a function patched where it begins (dynamic.c), from
 * its trampoline slot, which it was jumped to with the stack untouched.
 * A program built without -pg may keep values in any register across a
 * call to a function it knows does not touch them (gcc's -fipa-ra): r11
 * is kept too, and every register but rax and rdx at the exit
 * (kft_return_trampoline).
 */
	.type	dyn_entry_stub, @function
dyn_entry_stub:
	ENTRY_STUB 2
	.size	dyn_entry_stub, .-dyn_entry_stub

	.globl	kft_dyn_entry
	.hidden	kft_dyn_entry
	.type	kft_dyn_entry, @function
kft_dyn_entry:
	pushq	%r11
	call	dyn_entry_stub
	popq	%r11
	ret
	.size	kft_dyn_entry, .-kft_dyn_entry

	.globl	mcount
	.type	mcount, @function
mcount:
	ENTRY_STUB 0
	.size	mcount, .-mcount

	.globl	kft_return_trampoline
	.hidden	kft_return_trampoline
	.type	kft_return_trampoline, @function
kft_return_trampoline:
	/* here instead of the caller, with the stack at S as the function
	 * left it: rax, rdx, xmm0 and xmm1 hold the result. Every register is
	 * kept (a program built without -pg may rely on it, see
	 * kft_dyn_entry), and the return goes through the slot rax is saved
	 * in. The short path first, which touches no vector register; the
	 * whole one with xmm0-15 saved */
	pushq	%rax			/* S-8 */
	pushq	%rdx
	pushq	%rcx
	pushq	%rsi
	pushq	%rdi
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11			/* S-72 */
	READ_CLOCK
	movq	%rax, %rsi		/* ticks */
	pushq	%rbp
	movq	%rsp, %rbp		/* S-80 */
	andq	$-16, %rsp
	pushq	%rsi
	subq	$8, %rsp
	leaq	80(%rbp), %rdi		/* S */
	call	kft_pg_exit_short	/* rax: where to go back to, or 0 */
	movq	%rax, %r11
	xorl	%ecx, %ecx
	testq	%rax, %rax
	jnz	2f
	SAVE_VECTOR_ARGS
	SAVE_XMM8_15
	movq	264(%rsp), %rsi		/* ticks */
	leaq	80(%rbp), %rdi
	movq	72(%rbp), %rdx		/* the return value */
	leaq	128(%rsp), %rcx		/* and xmm0's, as saved */
	call	kft_pg_exit		/* rax: where to go back to; rdx: see above */
	movq	%rax, %r11
	movq	%rdx, %rcx
	RESTORE_XMM8_15
	RESTORE_VECTOR_ARGS
2:	movq	%rbp, %rsp
	popq	%rbp			/* S-72 */
	STORE_CLOCK_AT %rcx
	movq	64(%rsp), %rax		/* the return value back */
	movq	%r11, 64(%rsp)		/* and where to go, for ret */
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rdi
	popq	%rsi
	popq	%rcx
	popq	%rdx
	ret				/* to the caller, the stack at S */
	.size	kft_return_trampoline, .-kft_return_trampoline
#endif
	.section .note.GNU-stack,"",@progbits
