// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ground truth of tests/fidelity: a library preloaded into an
 * instrumented program in place of kft's runtime, which counts the calls
 * of each function and nothing else. Counts go to a table in a file shared
 * by every process of the run (COUNT_CALLS_FILE), so that fork children,
 * exec'd images and processes that end with _exit all count, by the
 * function's link-time address (its address less the program's load base,
 * the same in every image), or for a function of a library (clang
 * instruments a libc function it inlines, and names the library's) by
 * its name. -finstrument-functions gives the function;
 * mcount and __fentry__ (count-calls-x86_64.S) give the address after
 * their call, one per function, which names it as well.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <string.h>

#include "count-table.h"

static struct count_slot *table;
static uintptr_t base, end;	/* the program's code */

#define NOTRACE __attribute__((no_instrument_function))

static NOTRACE int first_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	base = info->dlpi_addr;
	for (size_t i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD &&
		    base + info->dlpi_phdr[i].p_vaddr + info->dlpi_phdr[i].p_memsz > end)
			end = base + info->dlpi_phdr[i].p_vaddr + info->dlpi_phdr[i].p_memsz;
	return 1;	/* the program is the first */
}

static NOTRACE __attribute__((constructor)) void start(void)
{
	dl_iterate_phdr(first_object, NULL);
	table = count_table_map("COUNT_CALLS_FILE");
}

/* The key: the link-time address + 1, or a library's function's address
 * + 1, named */
NOTRACE void count_call(uintptr_t addr)
{
	bool outside = addr < base || addr >= end, fresh;
	struct count_slot *s;
	Dl_info info;

	if (!table)
		return;
	s = count_table_add(table, (outside ? addr : addr - base) + 1, &fresh);
	if (fresh && outside && dladdr((void *)addr, &info) && info.dli_sname)
		strncpy(s->name, info.dli_sname, sizeof(s->name) - 1);
}

NOTRACE void __cyg_profile_func_enter(void *fn, void *site)
{
	(void)site;
	count_call((uintptr_t)fn);
}

NOTRACE void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)fn;
	(void)site;
}
