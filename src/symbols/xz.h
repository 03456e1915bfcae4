/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * xz data, as in the MiniDebugInfo section (.gnu_debugdata) that some
 * distributions put in stripped binaries: a small ELF file with the
 * function symbols, compressed. liblzma is loaded when first needed, so
 * that nothing links against it.
 */
#ifndef KFT_XZ_H
#define KFT_XZ_H

#include <stddef.h>

/* Decompress in[0, len) into fresh anonymous memory (*out, *out_len: free
 * with munmap). 0, or -1 when liblzma is missing or the data is bad. */
int kft_xz_inflate(const void *in, size_t len, void **out, size_t *out_len);

#endif
