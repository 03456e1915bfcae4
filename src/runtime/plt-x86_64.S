/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A library call through a GOT slot kft took (plt.c): the slot's stub
 * pushed the slot's number and jumped here, with the caller's return
 * address above it. The argument registers (and rax: the vector count of
 * a variadic call) are kept across the C side, kft_plt_entry, which says
 * where the call goes on to; that address takes the number's place on
 * the stack and a ret goes there, leaving the stack as the call left it.
 */
#if defined(__x86_64__)
#include "hook-stub-x86_64.h"
	.text
	.globl	kft_plt_common
	.hidden	kft_plt_common
	.type	kft_plt_common, @function
kft_plt_common:
	STUB_BEGIN			/* 0: rbx, 8: rdx, 16: rax, 24: n, 32: return address */
	movq	24(%rbx), %rdi		/* the slot's number */
	leaq	32(%rbx), %rsi		/* where the return address lies */
	movq	%rax, %rdx		/* ticks */
	leaq	128(%rsp), %rcx		/* the saved argument registers */
	movq	%rbx, %r8
	call	kft_plt_entry		/* rax: where to go; rdx: where to store the clock */
	movq	%rax, 24(%rbx)
	movq	%rdx, %r11
	STUB_END
	ret				/* to the function, the caller's return address above */
	.size	kft_plt_common, .-kft_plt_common
#endif
	.section .note.GNU-stack,"",@progbits
