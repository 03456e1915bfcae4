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
	.text

/* rdi = ip after the call, rsi = where the return address lies, edx = kind */
.macro SAVE_ARGS
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%r8
	pushq	%r9
	pushq	%rax
	pushq	%r10
	pushq	%r11
	subq	$136, %rsp		/* xmm0-7, and 8 to keep 16-byte alignment */
	movdqu	%xmm0, 0(%rsp)
	movdqu	%xmm1, 16(%rsp)
	movdqu	%xmm2, 32(%rsp)
	movdqu	%xmm3, 48(%rsp)
	movdqu	%xmm4, 64(%rsp)
	movdqu	%xmm5, 80(%rsp)
	movdqu	%xmm6, 96(%rsp)
	movdqu	%xmm7, 112(%rsp)
.endm

.macro RESTORE_ARGS
	movdqu	0(%rsp), %xmm0
	movdqu	16(%rsp), %xmm1
	movdqu	32(%rsp), %xmm2
	movdqu	48(%rsp), %xmm3
	movdqu	64(%rsp), %xmm4
	movdqu	80(%rsp), %xmm5
	movdqu	96(%rsp), %xmm6
	movdqu	112(%rsp), %xmm7
	addq	$136, %rsp
	popq	%r11
	popq	%r10
	popq	%rax
	popq	%r9
	popq	%r8
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
.endm

/*
 * The compiler may call the hooks with the stack not 16-byte aligned (gcc
 * -pg at -O0 does): rbx keeps the stack as we found it, and the C side
 * runs on an aligned one. 8(%rbx) is the ip after the call to us.
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
	pushq	%rbx
	movq	%rsp, %rbx
	andq	$-16, %rsp
	SAVE_ARGS
	movq	8(%rbx), %rdi		/* ip: just after the call to us */
	leaq	16(%rbx), %rsi		/* the traced function's return address */
	movl	$1, %edx
	call	kft_pg_entry
	RESTORE_ARGS
	movq	%rbx, %rsp
	popq	%rbx
	ret
	.size	__fentry__, .-__fentry__

	.globl	mcount
	.type	mcount, @function
mcount:
	pushq	%rbx
	movq	%rsp, %rbx
	andq	$-16, %rsp
	SAVE_ARGS
	movq	8(%rbx), %rdi
	leaq	8(%rbp), %rsi		/* the frame pointer is set up already */
	movl	$0, %edx
	call	kft_pg_entry
	RESTORE_ARGS
	movq	%rbx, %rsp
	popq	%rbx
	ret
	.size	mcount, .-mcount

	.globl	kft_return_trampoline
	.hidden	kft_return_trampoline
	.type	kft_return_trampoline, @function
kft_return_trampoline:
	/* here instead of the caller: rax, rdx, xmm0 and xmm1 hold the result */
	pushq	%rbp
	movq	%rsp, %rbp
	andq	$-16, %rsp
	subq	$48, %rsp
	movq	%rax, 0(%rsp)
	movq	%rdx, 8(%rsp)
	movdqu	%xmm0, 16(%rsp)
	movdqu	%xmm1, 32(%rsp)
	leaq	8(%rbp), %rdi		/* the stack as the function left it */
	call	kft_pg_exit		/* returns where to go back to */
	movq	%rax, %r11
	movq	0(%rsp), %rax
	movq	8(%rsp), %rdx
	movdqu	16(%rsp), %xmm0
	movdqu	32(%rsp), %xmm1
	movq	%rbp, %rsp
	popq	%rbp
	jmp	*%r11
	.size	kft_return_trampoline, .-kft_return_trampoline
#endif
	.section .note.GNU-stack,"",@progbits
