// SPDX-License-Identifier: LGPL-2.1
/*
 * How an object's code uses its GOT slots of imported functions
 * (R_X86_64_GLOB_DAT, no PLT: code built with -fno-plt calls through
 * them, `call *malloc@GOTPCREL(%rip)`). The same slot also gives the
 * function's address wherever the code takes it (`mov
 * free@GOTPCREL(%rip), %rax`), and a function pointer the program holds
 * must stay the library's, or comparing it with another fails. So a
 * slot is taken for library calls only when every reference the code
 * makes to it is a call or a jump through it.
 *
 * The references are found by looking at every 4 bytes of the object's
 * code as a RIP-relative displacement: one that lands on a slot from
 * the end of a call or jump (ff 15, ff 25) is a call, and so is a load
 * into a register the call right after goes through and the callee may
 * clobber (`mov slot(%rip), %rax; call *%rax`, as clang -O0 does): the
 * address dies there. One that lands on a slot from any other
 * instruction end an operand could have (4, 5 or 8 bytes on: an
 * immediate may follow) is something else. A RIP-relative operand
 * follows its ModRM byte (mod 00, r/m 101), which leaves out most bytes
 * that only look like a reference; those left make a slot be left alone,
 * never taken wrongly.
 */
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

/* Whether the disp32 at q ends `mov disp(%rip), %reg` (REX.W 8b, reg a
 * register a call may clobber) that the next instruction calls or jumps
 * through, end the code. */
static KFT_NOTRACE bool loaded_to_call(const unsigned char *q, const unsigned char *code,
				       const unsigned char *end)
{
	/* rax, rcx, rdx, rsi, rdi, r8-r11 */
	static const unsigned short clobbered = 0x0fc7;
	const unsigned char *next = q + 4;
	unsigned int reg;

	if (q - code < 3 || (q[-3] != 0x48 && q[-3] != 0x4c) || q[-2] != 0x8b ||
	    (q[-1] & 0xc7) != 0x05)
		return false;
	reg = ((q[-1] >> 3) & 7) | (q[-3] == 0x4c ? 8 : 0);
	if (!(clobbered >> reg & 1))
		return false;
	if (reg >= 8) {
		if (end - next < 3 || next[0] != 0x41)
			return false;
		next++;
	} else if (end - next < 2) {
		return false;
	}
	/* ff /2 (call) or ff /4 (jmp), mod 11, the register */
	return next[0] == 0xff &&
	       (next[1] == (0xd0 | (reg & 7)) || next[1] == (0xe0 | (reg & 7)));
}

static KFT_NOTRACE int cmp_addr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

KFT_NOTRACE void kft_got_refs(const struct dl_phdr_info *info, const uintptr_t *slots, size_t n,
			      bool *called, bool *other)
{
	static const unsigned int ends[] = { 4, 5, 8 };	/* where the instruction ends */
	uintptr_t lo, hi;

	memset(called, 0, n * sizeof(*called));
	memset(other, 0, n * sizeof(*other));
	if (!n)
		return;
	lo = slots[0];
	hi = slots[n - 1] + sizeof(uintptr_t);
	for (int s = 0; s < info->dlpi_phnum; s++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[s];
		const unsigned char *code, *end;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || ph->p_memsz < 6)
			continue;
		code = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		end = code + ph->p_memsz;
		/* (an operand follows two bytes of opcode at least) */
		for (const unsigned char *q = code + 2; q + 4 <= end; q++) {
			int32_t disp;

			if ((q[-1] & 0xc7) != 0x05)
				continue;	/* not after a RIP-relative ModRM */
			memcpy(&disp, q, sizeof(disp));
			for (size_t k = 0; k < sizeof(ends) / sizeof(ends[0]); k++) {
				uintptr_t to = (uintptr_t)q + ends[k] + (intptr_t)disp;
				const uintptr_t *at;
				size_t i;

				if (to < lo || to >= hi ||
				    !(at = bsearch(&to, slots, n, sizeof(*slots), cmp_addr)))
					continue;
				i = (size_t)(at - slots);
				if (k == 0 && ((q[-2] == 0xff && (q[-1] == 0x15 || q[-1] == 0x25)) ||
					       loaded_to_call(q, code, end)))
					called[i] = true;
				else
					other[i] = true;
			}
		}
	}
}
