/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A caller that keeps a value in the upper half of ymm8 across calls, as
 * a compiler that knows its callees leave it alone may (gcc's -fipa-ra),
 * through the calls' first entries, which take the hooks' whole path.
 * say_twice (4 bytes at gcc -O2, the last function of .text, with no
 * padding behind it) is too short for a jump at its start. Built with
 * -mavx2.
 */
#include <stdio.h>

__attribute__((noinline)) int add_one(int x)
{
	return x + 1;
}

__attribute__((noinline)) int say_twice(int x)
{
	return x * 2;
}

int main(void)
{
	int kept = 1;

	for (int round = 0; round < 3; round++) {
		unsigned long long out[4];

		__asm__ volatile("vpcmpeqd %%ymm8, %%ymm8, %%ymm8\n\t"
				 "mov %1, %%edi\n\t"
				 "call add_one\n\t"
				 "mov %%eax, %%edi\n\t"
				 "call say_twice\n\t"
				 "vmovdqu %%ymm8, %0\n\t"
				 : "=m"(out)
				 : "r"(round)
				 : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "xmm0",
				   "xmm1", "xmm8", "memory");
		for (int i = 0; i < 4; i++)
			kept &= out[i] == ~0ULL;
	}
	printf("ymm8 %s\n", kept ? "kept" : "clobbered");
	return !kept;
}
