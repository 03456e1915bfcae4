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
#include <fcntl.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SLOTS (1 << 16)

struct slot {
	uint64_t key;		/* link-time address + 1; 0: free */
	uint64_t count;
	char name[48];		/* a library's function: its name */
};

static struct slot *table;
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
	const char *path = getenv("COUNT_CALLS_FILE");
	size_t size = SLOTS * sizeof(struct slot);
	int fd;

	dl_iterate_phdr(first_object, NULL);
	if (!path || (fd = open(path, O_RDWR | O_CREAT, 0644)) < 0)
		return;
	if (!ftruncate(fd, (off_t)size)) {
		void *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

		if (map != MAP_FAILED)
			table = map;
	}
	close(fd);
}

NOTRACE void count_call(uintptr_t addr)
{
	bool outside = addr < base || addr >= end;
	uint64_t key = (outside ? addr : addr - base) + 1;
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 48) & (SLOTS - 1);

	if (!table)
		return;
	for (;;) {
		uint64_t seen = __atomic_load_n(&table[i].key, __ATOMIC_ACQUIRE);

		if (!seen && __atomic_compare_exchange_n(&table[i].key, &seen, key, false,
							 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			Dl_info info;

			if (outside && dladdr((void *)addr, &info) && info.dli_sname)
				strncpy(table[i].name, info.dli_sname, sizeof(table[i].name) - 1);
			seen = key;
		}
		if (seen == key) {
			__atomic_fetch_add(&table[i].count, 1, __ATOMIC_RELAXED);
			return;
		}
		i = (i + 1) & (SLOTS - 1);
	}
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
