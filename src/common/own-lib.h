/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A library kft loads for its own reading (liblzma for a MiniDebugInfo
 * symbol table, libstdc++ for C++ names), through the C library's
 * dlopen: inside a traced program, never through the runtime's dlopen
 * (runtime/maps.c), which would save maps and patch for a library the
 * program did not load.
 */
#ifndef KFT_OWN_LIB_H
#define KFT_OWN_LIB_H

/* dlopen(soname, RTLD_LAZY | RTLD_LOCAL), as the C library does it; NULL
 * if it cannot. */
void *kft_own_lib(const char *soname);

#endif
