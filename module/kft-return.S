/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where a traced call returns instead of to its caller: keep the return
 * values, ask kft_exit (kft-hook.c) for the real return address, go there.
 */
#include <linux/linkage.h>
#include <asm/unwind_hints.h>
#include <asm/nospec-branch.h>

	.code64
	.section .text, "ax"

/*
 * An unwinder meeting kft_return on a stack looks up the byte before it,
 * as for any return address: the nop gives it the end-of-stack hint, so
 * stack traces stop here instead of going astray.
 */
SYM_CODE_START(kft_return_area)
	UNWIND_HINT_EMPTY
	nop
SYM_INNER_LABEL(kft_return, SYM_L_GLOBAL)
	/* rsp: where the returning call's return address was, plus 8 */
	subq	$24, %rsp
	movq	%rax, (%rsp)
	movq	%rdx, 8(%rsp)
	leaq	24(%rsp), %rdi
	call	kft_exit
	movq	%rax, 16(%rsp)
	movq	8(%rsp), %rdx
	movq	(%rsp), %rax
	addq	$16, %rsp
	/* the caller's address is on top of the stack now */
	RET
SYM_CODE_END(kft_return_area)
