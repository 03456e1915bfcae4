// SPDX-License-Identifier: LGPL-2.1
/*
 * Keeping the vector state the stubs do not save (vector-state.h). What
 * the CPU has is learned at the first use, from CPUID and XCR0: no call
 * into the C library, whose routines are what the state is kept from.
 */
#include "vector-state.h"

#if defined(__x86_64__)
#include <cpuid.h>

/* XSAVE's components: the ymm upper halves, the opmasks, the zmm upper
 * halves and zmm16-31 (not x87 and SSE: the stubs keep xmm0-15 and the
 * runtime leaves the rest of them alone) */
#define COMPONENTS (1U << 2 | 1U << 5 | 1U << 6 | 1U << 7)

static uint64_t vec_mask;	/* the components kept, once known */
static int vec_compact;		/* xsavec: only what is not in its first state */
static int vec_known;

static KFT_NOTRACE void learn(void)
{
	unsigned int a, b, c, d;
	uint64_t mask = 0;

	if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE)) {
		unsigned int lo, hi;

		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
		mask = lo & COMPONENTS;
		/* each component's place in the standard layout within the area */
		for (unsigned int i = 2; i < 8; i++) {
			if (!(mask & 1ULL << i))
				continue;
			__cpuid_count(0xd, i, a, b, c, d);
			if ((uint64_t)a + b > KFT_VEC_AREA)
				mask &= ~(1ULL << i);
		}
		__cpuid_count(0xd, 1, a, b, c, d);
		vec_compact = a & 2;
	}
	vec_mask = mask;
	__atomic_store_n(&vec_known, 1, __ATOMIC_RELEASE);
}

KFT_NOTRACE void kft_vec_keep(struct kft_vec_keep *k)
{
	if (!__atomic_load_n(&vec_known, __ATOMIC_ACQUIRE))
		learn();
	k->mask = vec_mask;
	if (!k->mask)
		return;
	/* xrstor wants the header's reserved bytes clear, which neither
	 * writes */
	for (unsigned int i = 512; i < 576; i += 8)
		*(volatile uint64_t *)&k->area[i] = 0;
	if (vec_compact) {
		__asm__ volatile("xsavec %0"
				 : "+m"(k->area)
				 : "a"((uint32_t)k->mask), "d"((uint32_t)(k->mask >> 32))
				 : "memory");
	} else {
		__asm__ volatile("xsave %0"
				 : "+m"(k->area)
				 : "a"((uint32_t)k->mask), "d"((uint32_t)(k->mask >> 32))
				 : "memory");
	}
}

KFT_NOTRACE void kft_vec_give_back(const struct kft_vec_keep *k)
{
	if (k->mask)
		__asm__ volatile("xrstor %0"
				 :
				 : "m"(k->area), "a"((uint32_t)k->mask),
				   "d"((uint32_t)(k->mask >> 32))
				 : "memory");
}
#else
KFT_NOTRACE void kft_vec_keep(struct kft_vec_keep *k)
{
	k->mask = 0;
}

KFT_NOTRACE void kft_vec_give_back(const struct kft_vec_keep *k)
{
	(void)k;
}
#endif
