/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A caller that keeps values in vector registers the hook stubs do not
 * save, across calls, as a compiler that knows its callees leave them
 * alone may (gcc's -fipa-ra): the upper half of ymm8 and, where the CPU
 * has AVX-512, ymm16, which the C library's AVX and AVX-512 routines
 * change. Through the calls' first entries, which take the hooks' whole
 * path, in the main thread and in a second one (whose first traced call
 * may set its log up). say_twice (4 bytes at gcc -O2, the last function
 * of .text, with no padding behind it) is too short for a jump at its
 * start. Built with -mavx2 -pthread.
 */
#include <pthread.h>
#include <stdio.h>

__attribute__((noinline)) int add_one(int x)
{
	return x + 1;
}

/* three rounds of add_one and say_twice, with ymm8 (and ymm16 where
 * avx512 says) all ones across them: whether they stayed so (the calls
 * step over the red zone: to the compiler this is a leaf function) */
__attribute__((noinline)) static int rounds(int avx512)
{
	int kept = 1;

	for (int round = 0; round < 3; round++) {
		unsigned long long out[4], out16[4] = { ~0ULL, ~0ULL, ~0ULL, ~0ULL };

		if (avx512)
			__asm__ volatile("vpcmpeqd %%ymm8, %%ymm8, %%ymm8\n\t"
					 "vpternlogd $0xff, %%ymm16, %%ymm16, %%ymm16\n\t"
					 "sub $128, %%rsp\n\t"
					 "mov %2, %%edi\n\t"
					 "call add_one\n\t"
					 "mov %%eax, %%edi\n\t"
					 "call say_twice\n\t"
					 "add $128, %%rsp\n\t"
					 "vmovdqu %%ymm8, %0\n\t"
					 "vmovdqu64 %%ymm16, %1\n\t"
					 : "=m"(out), "=m"(out16)
					 : "r"(round)
					 : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11",
					   "xmm0", "xmm1", "xmm8", "memory");
		else
			__asm__ volatile("vpcmpeqd %%ymm8, %%ymm8, %%ymm8\n\t"
					 "sub $128, %%rsp\n\t"
					 "mov %1, %%edi\n\t"
					 "call add_one\n\t"
					 "mov %%eax, %%edi\n\t"
					 "call say_twice\n\t"
					 "add $128, %%rsp\n\t"
					 "vmovdqu %%ymm8, %0\n\t"
					 : "=m"(out)
					 : "r"(round)
					 : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11",
					   "xmm0", "xmm1", "xmm8", "memory");
		for (int i = 0; i < 4; i++)
			kept &= out[i] == ~0ULL && out16[i] == ~0ULL;
	}
	return kept;
}

/* AVX-512VL, and the system keeping its registers (XCR0); cpuid by
 * hand, as cpuid.h's helpers would be functions of their own at -O0 */
static inline __attribute__((always_inline)) void cpuid(unsigned int leaf, unsigned int r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(0));
}

static inline __attribute__((always_inline)) int has_avx512vl(void)
{
	unsigned int r[4], lo, hi;

	cpuid(0, r);
	if (r[0] < 7)
		return 0;
	cpuid(1, r);
	if (!(r[2] & 1U << 27))		/* OSXSAVE */
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	if ((lo & 0xe6) != 0xe6)	/* SSE, AVX and the three AVX-512 parts */
		return 0;
	cpuid(7, r);
	return (r[1] & 1U << 16) && (r[1] & 1U << 31);	/* AVX512F, AVX512VL */
}

static void *in_thread(void *avx512)
{
	return (void *)(long)rounds(*(int *)avx512);
}

__attribute__((noinline)) int say_twice(int x)
{
	return x * 2;
}

int main(void)
{
	int avx512 = has_avx512vl(), kept = rounds(avx512);
	pthread_t t;
	void *thread_kept = NULL;

	if (pthread_create(&t, NULL, in_thread, &avx512) || pthread_join(t, &thread_kept))
		return 2;
	printf("ymm8%s %s\n", avx512 ? " and ymm16" : "",
	       kept && thread_kept ? "kept" : "clobbered");
	return !(kept && thread_kept);
}
