/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * -finstrument-functions' hooks on x86-64. The clock is read at the
 * first instruction, and with --compensate at the last one too: what a
 * compensated duration keeps of the hooks is then the call into them
 * and the return, which the instrumented program also pays when it runs
 * without kft (into the C library's hooks, which do nothing), and the
 * share of the two readings that falls outside them, which kft measures
 * at start (calibrate.c). The C side (hooks.c) does the work; untimed,
 * it returns straight to the program.
 */
#if defined(__x86_64__)
	.text

/* rdx = the TSC, as one number (rdtsc leaves it in edx:eax) */
.macro TSC_TO_RDX
	rdtsc
	shlq	$32, %rdx
	orq	%rax, %rdx
.endm

/* name(fn, call_site) calls c_side(fn, call_site, ticks, sp), sp where a
 * C hook's frame pointer would be; c_side returns where to store the
 * clock at the end, or NULL. Untimed, it jumps to c_short, the C side's
 * short path, which returns to the program. */
.macro CYG_HOOK name, c_side, c_short
	.globl	\name
	.type	\name, @function
\name:
	TSC_TO_RDX
	leaq	-8(%rsp), %rcx
	cmpl	$0, kft_hooks_timed(%rip)
	je	\c_short
	subq	$8, %rsp		/* the stack aligned for the call */
	call	\c_side
	addq	$8, %rsp
	testq	%rax, %rax
	jz	1f
	movq	%rax, %rcx
	rdtsc
	shlq	$32, %rdx
	orq	%rdx, %rax
	movq	%rax, (%rcx)
1:	ret
	.size	\name, .-\name
.endm

	CYG_HOOK __cyg_profile_func_enter, kft_cyg_enter, kft_cyg_enter_short
	CYG_HOOK __cyg_profile_func_exit, kft_cyg_exit, kft_cyg_exit_short
#endif
	.section .note.GNU-stack,"",@progbits
