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
 * The C side's return value (rax) says where to store the clock as the
 * stub ends (--compensate), or NULL. The clock is read first thing and
 * last thing: rax and rdx, which rdtsc takes, are saved before the rest
 * and restored after it. r11 is nobody's argument: it is not kept.
 */
.macro ENTRY_STUB kind
	STUB_BEGIN			/* 0: rbx, 8: rdx, 16: rax, 24: ip after the call */
	movq	%rax, %rcx		/* ticks */
	movq	24(%rbx), %rdi		/* ip: just after the call to us */
	.if \kind
	leaq	32(%rbx), %rsi		/* the traced function's return address */
	.else
	leaq	8(%rbp), %rsi		/* the frame pointer is set up already */
	.endif
	movl	$\kind, %edx
	call	kft_pg_entry
	movq	%rax, %r11
	STUB_END
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

	.globl	mcount
	.type	mcount, @function
mcount:
	ENTRY_STUB 0
	.size	mcount, .-mcount

	.globl	kft_return_trampoline
	.hidden	kft_return_trampoline
	.type	kft_return_trampoline, @function
kft_return_trampoline:
	/* here instead of the caller: rax, rdx, xmm0 and xmm1 hold the
	 * result; every other register but the callee-saved ones is free */
	movq	%rax, %r8
	movq	%rdx, %r9
	rdtsc
	shlq	$32, %rdx
	orq	%rdx, %rax
	movq	%rax, %rsi		/* ticks */
	pushq	%rbp
	movq	%rsp, %rbp
	andq	$-16, %rsp
	subq	$48, %rsp
	movq	%r8, 0(%rsp)
	movq	%r9, 8(%rsp)
	movdqu	%xmm0, 16(%rsp)
	movdqu	%xmm1, 32(%rsp)
	leaq	8(%rbp), %rdi		/* the stack as the function left it */
	call	kft_pg_exit		/* rax: where to go back to; rdx: see above */
	movq	%rax, %r11
	movq	%rdx, %rcx
	movq	0(%rsp), %r8
	movq	8(%rsp), %r9
	movdqu	16(%rsp), %xmm0
	movdqu	32(%rsp), %xmm1
	movq	%rbp, %rsp
	popq	%rbp
	testq	%rcx, %rcx
	jz	1f
	rdtsc
	shlq	$32, %rdx
	orq	%rdx, %rax
	movq	%rax, (%rcx)
1:	movq	%r8, %rax
	movq	%r9, %rdx
	jmp	*%r11
	.size	kft_return_trampoline, .-kft_return_trampoline
#endif
	.section .note.GNU-stack,"",@progbits
