/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The runtime's own memory. libkft lives in another's program, which may
 * define malloc itself (and count its calls, or be the code traced): the
 * runtime never calls the program's allocator. Every runtime object is
 * built with this file included first (the Makefile's -include), so that
 * its calls of the C library's allocating routines, and of those shared
 * with the tool (config parsing, ELF symbols), come here: memory mapped
 * by the runtime itself, which the program never sees.
 */
#ifndef KFT_OWN_ALLOC_H
#define KFT_OWN_ALLOC_H

#include <stddef.h>

void *kft_own_malloc(size_t n) __attribute__((visibility("hidden")));
void *kft_own_calloc(size_t n, size_t size) __attribute__((visibility("hidden")));
void *kft_own_realloc(void *p, size_t n) __attribute__((visibility("hidden")));
void kft_own_free(void *p) __attribute__((visibility("hidden")));
char *kft_own_strdup(const char *s) __attribute__((visibility("hidden")));
char *kft_own_strndup(const char *s, size_t n) __attribute__((visibility("hidden")));
/* qsort, stable as glibc's (a merge sort, its copy from the runtime's
 * memory; a heapsort in place if there is none) */
void kft_own_qsort(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
	__attribute__((visibility("hidden")));
void kft_own_qsort_r(void *v, size_t n, size_t size,
		     int (*cmp)(const void *, const void *, void *), void *arg)
	__attribute__((visibility("hidden")));
/* after fork, in the child: the lock as if nobody held it */
void kft_own_alloc_forked(void) __attribute__((visibility("hidden")));

/* (the headers that declare the real ones come first) */
#include <stdlib.h>
#include <string.h>

#define malloc(n) kft_own_malloc(n)
#define calloc(n, s) kft_own_calloc(n, s)
#define realloc(p, n) kft_own_realloc(p, n)
#define free(p) kft_own_free(p)
#define strdup(s) kft_own_strdup(s)
#define strndup(s, n) kft_own_strndup(s, n)
#define qsort(v, n, s, c) kft_own_qsort(v, n, s, c)
#define qsort_r(v, n, s, c, a) kft_own_qsort_r(v, n, s, c, a)

#endif
