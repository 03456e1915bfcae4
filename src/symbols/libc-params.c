// SPDX-License-Identifier: GPL-2.0-only
/*
 * The C library's common functions, as args specs (kft-config(5)): what
 * kft record -a saves of a library call, whose library has no debug
 * information here. x86-64 glibc's prototypes: sizes as its types have
 * them (int 32 bits, size_t and ssize_t 64); a variadic function's fixed
 * parameters only.
 */
#include <stdlib.h>
#include <string.h>

#include "libc-params.h"

#define FD_RET "retval/d32"
struct entry {
	const char *name, *spec;
};

static const struct entry table[] = {
	/* sorted by name: looked up by bsearch */
	{ "accept", "arg1/d32,arg2/x,arg3/x," FD_RET },
	{ "atoi", "arg1/s,retval/d32" },
	{ "atol", "arg1/s,retval/d" },
	{ "bind", "arg1/d32,arg2/x,arg3/u32,retval/d32" },
	{ "calloc", "arg1/u,arg2/u,retval/x" },
	{ "close", "arg1/d32,retval/d32" },
	{ "connect", "arg1/d32,arg2/x,arg3/u32,retval/d32" },
	{ "cos", "fparg1,retval/f" },
	{ "creat", "arg1/s,arg2/x," FD_RET },
	{ "dlopen", "arg1/s,arg2/x,retval/x" },
	{ "dlsym", "arg1/x,arg2/s,retval/x" },
	{ "dup", "arg1/d32," FD_RET },
	{ "dup2", "arg1/d32,arg2/d32," FD_RET },
	{ "execv", "arg1/s,arg2/x,retval/d32" },
	{ "execve", "arg1/s,arg2/x,arg3/x,retval/d32" },
	{ "execvp", "arg1/s,arg2/x,retval/d32" },
	{ "exit", "arg1/d32" },
	{ "exp", "fparg1,retval/f" },
	{ "fclose", "arg1/x,retval/d32" },
	{ "fflush", "arg1/x,retval/d32" },
	{ "fgets", "arg1/x,arg2/d32,arg3/x,retval/x" },
	{ "fopen", "arg1/s,arg2/s,retval/x" },
	{ "fopen64", "arg1/s,arg2/s,retval/x" },
	{ "fork", "retval/d32" },
	{ "fprintf", "arg1/x,arg2/s,retval/d32" },
	{ "fputs", "arg1/s,arg2/x,retval/d32" },
	{ "fread", "arg1/x,arg2/u,arg3/u,arg4/x,retval/u" },
	{ "free", "arg1/x" },
	{ "fwrite", "arg1/x,arg2/u,arg3/u,arg4/x,retval/u" },
	{ "getenv", "arg1/s,retval/s" },
	{ "getpid", "retval/d32" },
	{ "kill", "arg1/d32,arg2/d32,retval/d32" },
	{ "listen", "arg1/d32,arg2/d32,retval/d32" },
	{ "log", "fparg1,retval/f" },
	{ "lseek", "arg1/d32,arg2/d,arg3/d32,retval/d" },
	{ "lseek64", "arg1/d32,arg2/d,arg3/d32,retval/d" },
	{ "malloc", "arg1/u,retval/x" },
	{ "memchr", "arg1/x,arg2/d32,arg3/u,retval/x" },
	{ "memcmp", "arg1/x,arg2/x,arg3/u,retval/d32" },
	{ "memcpy", "arg1/x,arg2/x,arg3/u,retval/x" },
	{ "memmove", "arg1/x,arg2/x,arg3/u,retval/x" },
	{ "memset", "arg1/x,arg2/d32,arg3/u,retval/x" },
	{ "mmap", "arg1/x,arg2/u,arg3/d32,arg4/x,arg5/d32,arg6/d,retval/x" },
	{ "mmap64", "arg1/x,arg2/u,arg3/d32,arg4/x,arg5/d32,arg6/d,retval/x" },
	{ "munmap", "arg1/x,arg2/u,retval/d32" },
	{ "nanosleep", "arg1/x,arg2/x,retval/d32" },
	{ "open", "arg1/s,arg2/x," FD_RET },
	{ "open64", "arg1/s,arg2/x," FD_RET },
	{ "openat", "arg1/d32,arg2/s,arg3/x," FD_RET },
	{ "openat64", "arg1/d32,arg2/s,arg3/x," FD_RET },
	{ "pipe", "arg1/x,retval/d32" },
	{ "pow", "fparg1,fparg2,retval/f" },
	{ "pread", "arg1/d32,arg2/x,arg3/u,arg4/d,retval/d" },
	{ "pread64", "arg1/d32,arg2/x,arg3/u,arg4/d,retval/d" },
	{ "printf", "arg1/s,retval/d32" },
	{ "pthread_create", "arg1/x,arg2/x,arg3/x,arg4/x,retval/d32" },
	{ "pthread_join", "arg1/x,arg2/x,retval/d32" },
	{ "pthread_mutex_lock", "arg1/x,retval/d32" },
	{ "pthread_mutex_unlock", "arg1/x,retval/d32" },
	{ "putchar", "arg1/d32,retval/d32" },
	{ "puts", "arg1/s,retval/d32" },
	{ "pwrite", "arg1/d32,arg2/x,arg3/u,arg4/d,retval/d" },
	{ "pwrite64", "arg1/d32,arg2/x,arg3/u,arg4/d,retval/d" },
	{ "qsort", "arg1/x,arg2/u,arg3/u,arg4/x" },
	{ "read", "arg1/d32,arg2/x,arg3/u,retval/d" },
	{ "realloc", "arg1/x,arg2/u,retval/x" },
	{ "recv", "arg1/d32,arg2/x,arg3/u,arg4/d32,retval/d" },
	{ "remove", "arg1/s,retval/d32" },
	{ "rename", "arg1/s,arg2/s,retval/d32" },
	{ "send", "arg1/d32,arg2/x,arg3/u,arg4/d32,retval/d" },
	{ "setenv", "arg1/s,arg2/s,arg3/d32,retval/d32" },
	{ "sin", "fparg1,retval/f" },
	{ "sleep", "arg1/u32,retval/u32" },
	{ "snprintf", "arg1/x,arg2/u,arg3/s,retval/d32" },
	{ "socket", "arg1/d32,arg2/d32,arg3/d32," FD_RET },
	{ "sprintf", "arg1/x,arg2/s,retval/d32" },
	{ "sqrt", "fparg1,retval/f" },
	{ "sqrtf", "fparg1/f32,retval/f32" },
	{ "stat", "arg1/s,arg2/x,retval/d32" },
	{ "strcat", "arg1/x,arg2/s,retval/x" },
	{ "strchr", "arg1/s,arg2/d32,retval/x" },
	{ "strcmp", "arg1/s,arg2/s,retval/d32" },
	{ "strcpy", "arg1/x,arg2/s,retval/x" },
	{ "strdup", "arg1/s,retval/x" },
	{ "strlen", "arg1/s,retval/u" },
	{ "strncmp", "arg1/s,arg2/s,arg3/u,retval/d32" },
	{ "strncpy", "arg1/x,arg2/s,arg3/u,retval/x" },
	{ "strrchr", "arg1/s,arg2/d32,retval/x" },
	{ "strstr", "arg1/s,arg2/s,retval/x" },
	{ "strtol", "arg1/s,arg2/x,arg3/d32,retval/d" },
	{ "strtoul", "arg1/s,arg2/x,arg3/d32,retval/u" },
	{ "system", "arg1/s,retval/d32" },
	{ "unlink", "arg1/s,retval/d32" },
	{ "usleep", "arg1/u32,retval/d32" },
	{ "waitpid", "arg1/d32,arg2/x,arg3/d32,retval/d32" },
	{ "write", "arg1/d32,arg2/x,arg3/u,retval/d" },
};

static int by_name(const void *key, const void *e)
{
	return strcmp(key, ((const struct entry *)e)->name);
}

const char *kft_libc_params(const char *name)
{
	const struct entry *hit = bsearch(name, table, sizeof(table) / sizeof(table[0]),
					  sizeof(table[0]), by_name);

	return hit ? hit->spec : NULL;
}

size_t kft_libc_params_count(void)
{
	return sizeof(table) / sizeof(table[0]);
}

const char *kft_libc_params_name(size_t i)
{
	return i < sizeof(table) / sizeof(table[0]) ? table[i].name : NULL;
}
