/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A hook stub's start and end, and their parts (included by the .S
 * stubs). STUB_BEGIN
 * reads the clock into rax first thing (rax and rdx, which rdtsc takes,
 * saved before), keeps the stack as found in rbx (the word above the
 * saved rbx, rdx and rax is at 24(%rbx)), and saves the argument
 * registers on an aligned stack: rdi, rsi, rcx, r8, r9, r10 (a nested
 * function's static chain) and xmm0-7. STUB_END puts them back and, if
 * r11 is not NULL, stores the clock there last thing. r11 is nobody's
 * argument: it is not kept.
 */
#ifndef KFT_HOOK_STUB_X86_64_H
#define KFT_HOOK_STUB_X86_64_H

.macro SAVE_INT_ARGS
	pushq	%rdi
	pushq	%rsi
	pushq	%rcx
	pushq	%r8
	pushq	%r9
	pushq	%r10
.endm

.macro RESTORE_INT_ARGS
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rcx
	popq	%rsi
	popq	%rdi
.endm

/* eight vector registers, 16 bytes each, from 0(%rsp) up */
.macro SAVE_XMMS r0, r1, r2, r3, r4, r5, r6, r7
	subq	$128, %rsp
	movdqu	%xmm\r0, 0(%rsp)
	movdqu	%xmm\r1, 16(%rsp)
	movdqu	%xmm\r2, 32(%rsp)
	movdqu	%xmm\r3, 48(%rsp)
	movdqu	%xmm\r4, 64(%rsp)
	movdqu	%xmm\r5, 80(%rsp)
	movdqu	%xmm\r6, 96(%rsp)
	movdqu	%xmm\r7, 112(%rsp)
.endm

.macro RESTORE_XMMS r0, r1, r2, r3, r4, r5, r6, r7
	movdqu	0(%rsp), %xmm\r0
	movdqu	16(%rsp), %xmm\r1
	movdqu	32(%rsp), %xmm\r2
	movdqu	48(%rsp), %xmm\r3
	movdqu	64(%rsp), %xmm\r4
	movdqu	80(%rsp), %xmm\r5
	movdqu	96(%rsp), %xmm\r6
	movdqu	112(%rsp), %xmm\r7
	addq	$128, %rsp
.endm

.macro SAVE_VECTOR_ARGS
	SAVE_XMMS 0, 1, 2, 3, 4, 5, 6, 7
.endm

.macro RESTORE_VECTOR_ARGS
	RESTORE_XMMS 0, 1, 2, 3, 4, 5, 6, 7
.endm

/* the rest: a program built without -pg may keep values there across a
 * call (see kft_dyn_entry) */
.macro SAVE_XMM8_15
	SAVE_XMMS 8, 9, 10, 11, 12, 13, 14, 15
.endm

.macro RESTORE_XMM8_15
	RESTORE_XMMS 8, 9, 10, 11, 12, 13, 14, 15
.endm

.macro SAVE_ARGS
	SAVE_INT_ARGS
	SAVE_VECTOR_ARGS
.endm

.macro RESTORE_ARGS
	RESTORE_VECTOR_ARGS
	RESTORE_INT_ARGS
.endm

/* rax: the clock, as one number */
.macro READ_CLOCK
	rdtsc
	shlq	$32, %rdx
	orq	%rdx, %rax
.endm

/* The clock stored at (reg) if reg is not NULL (--compensate). */
.macro STORE_CLOCK_AT reg
	testq	\reg, \reg
	jz	1f
	READ_CLOCK
	movq	%rax, (\reg)
1:
.endm

.macro STUB_BEGIN
	pushq	%rax
	pushq	%rdx
	READ_CLOCK			/* kept in rax till the call */
	pushq	%rbx
	movq	%rsp, %rbx
	andq	$-16, %rsp
	SAVE_ARGS
.endm

.macro STUB_END
	RESTORE_ARGS
	movq	%rbx, %rsp
	popq	%rbx
	STORE_CLOCK_AT %r11
	popq	%rdx
	popq	%rax
.endm

#endif
