/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mcount and __fentry__ for count-calls.c: count the address after the
 * call (one per function), every register the function may still need
 * kept as it was.
 */
	.text
	.globl	mcount
	.globl	__fentry__
	.type	mcount, @function
	.type	__fentry__, @function
mcount:
__fentry__:
	pushq	%rax
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%rbp
	movq	%rsp, %rbp
	andq	$-16, %rsp
	movq	80(%rbp), %rdi		/* the address after the call */
	call	count_call@PLT
	movq	%rbp, %rsp
	popq	%rbp
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rax
	ret
	.size	mcount, . - mcount
	.section .note.GNU-stack, "", @progbits
