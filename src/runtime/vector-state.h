/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The vector state the hook stubs do not save: the upper halves of
 * ymm0-15, the upper halves of zmm0-15, zmm16-31 and the opmask
 * registers. The stubs keep xmm0-15, all that the runtime's own code
 * (built for plain x86-64) touches; but the C library's string routines
 * run AVX builds, whose vzeroupper clears every ymm's upper half, or
 * AVX-512 ones, which use ymm16-31, while a program may pass __m256
 * arguments or keep values there across a call to a function it knows
 * leaves them alone (gcc's -fipa-ra). So the rare parts of the hooks'
 * path that call into the C library (setting a thread up, growing its
 * site table, taking room for saved arguments) keep that state in a
 * kft_vec_keep on their stack, with xsavec (or xsave) and xrstor: some
 * 60 ns, which the common path never pays.
 */
#ifndef KFT_VECTOR_STATE_H
#define KFT_VECTOR_STATE_H

#include <stdint.h>

#include "../common/compiler.h"

/* room for the standard layout's components up to zmm16-31 (2688 bytes) */
#define KFT_VEC_AREA 2752

struct kft_vec_keep {
	unsigned char area[KFT_VEC_AREA] __attribute__((aligned(64)));
	uint64_t mask;		/* what was saved: 0 on a CPU with none of it */
};

/* Save the state into k, and put it back from k. */
void kft_vec_keep(struct kft_vec_keep *k) KFT_HIDDEN;
void kft_vec_give_back(const struct kft_vec_keep *k) KFT_HIDDEN;

#endif
