// SPDX-License-Identifier: LGPL-2.1
#include <dlfcn.h>
#include <stddef.h>

#include "own-lib.h"

void *kft_own_lib(const char *soname)
{
	/* the next dlopen after this object's: the C library's, whether
	 * this is the tool or libkft, which defines one of its own */
	void *(*open_lib)(const char *, int) =
		(void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");

	return open_lib ? open_lib(soname, RTLD_LAZY | RTLD_LOCAL) : NULL;
}
