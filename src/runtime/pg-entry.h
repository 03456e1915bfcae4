/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * -pg and -pg -mfentry hooks: where the function they were called from
 * starts, and where its frame's stack pointer is taken to be (hooks.c's
 * whole path and hooks-short.c's short one share them).
 */
#ifndef KFT_PG_ENTRY_H
#define KFT_PG_ENTRY_H

#include <stdint.h>

#include "runtime.h"

void kft_return_trampoline(void) KFT_HIDDEN;

/*
 * A frame's sp: with -finstrument-functions it is the hook's frame, 16
 * bytes below the stack pointer of the function (which the longjmp code
 * relies on); here it is made the same from where the return address is.
 */
#define PG_SP(ret_loc) ((uintptr_t)(ret_loc) - 16)

/*
 * The function's first byte, from the address after the call to the hook
 * (fentry 0: mcount, 1: __fentry__, 2: kft_dyn_entry, which passes the
 * function's first byte itself):
 * the call ("e8 rel32", or "ff 15 disp32" through the GOT) is the first
 * instruction with -mfentry and follows "push %rbp; mov %rsp,%rbp" (and
 * perhaps "sub $n,%rsp") with -pg; an endbr64 may come first. Another
 * prologue leaves ip as it is: it still names the function, and
 * kft_config_func_at() maps it to a configured function's start.
 *
 * gcc brackets the __fentry__ call of a nested function with "push %r10"
 * and "pop %r10" (its static chain): the return address is then a word
 * further up than the stub looked, *ret_loc moves there, or the chain
 * would be taken for the return address and the program broken.
 */
static inline KFT_NOTRACE uintptr_t pg_function_start(uintptr_t ip, int fentry,
						      uintptr_t **ret_loc)
{
	const unsigned char *p = (const unsigned char *)ip;
	const unsigned char *c;

	if (fentry == 2)
		return ip;	/* kft_dyn_entry: the function itself */
	if (p[-6] == 0xff && p[-5] == 0x15)
		c = p - 6;
	else if (p[-5] == 0xe8)
		c = p - 5;
	else
		return ip;
	if (!fentry) {
		/* gcc may make room for locals first: sub $imm8 or $imm32, %rsp */
		if (c[-4] == 0x48 && c[-3] == 0x83 && c[-2] == 0xec)
			c -= 4;
		else if (c[-7] == 0x48 && c[-6] == 0x81 && c[-5] == 0xec)
			c -= 7;
		if (c[-4] != 0x55 || c[-3] != 0x48 || c[-2] != 0x89 || c[-1] != 0xe5)
			return ip;
		c -= 4;
	} else if (c[-2] == 0x41 && c[-1] == 0x52) {
		c -= 2;		/* push %r10 */
		(*ret_loc)++;
	}
	if (c[-4] == 0xf3 && c[-3] == 0x0f && c[-2] == 0x1e && c[-1] == 0xfa)
		c -= 4;		/* endbr64 */
	return (uintptr_t)c;
}

#endif
