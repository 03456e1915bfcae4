/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Fault a stretch of memory in with one system call rather than a page
 * fault a page (Linux 5.14's MADV_POPULATE_READ and _WRITE): for memory
 * about to be read or written whole, such as a symbol table's array or a
 * compressed trace's map. A hint: where the kernel has no such advice,
 * the pages fault in as they are touched, as before.
 */
#ifndef KFT_POPULATE_H
#define KFT_POPULATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* Below this, a few faults cost less than the call. */
#define KFT_POPULATE_MIN (64 * 1024)

/* The whole pages of [p, p + size), populated for advice. */
static inline void kft_populate(const void *p, size_t size, int advice)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t hi = ((uintptr_t)p + size) & ~(page - 1);

	if (size >= KFT_POPULATE_MIN && hi > lo)
		(void)madvise((void *)lo, hi - lo, advice);
}

#endif
