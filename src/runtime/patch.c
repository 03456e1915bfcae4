// SPDX-License-Identifier: LGPL-2.1
/*
 * -fpatchable-function-entry=5: every function begins with five bytes of
 * NOPs, and the section __patchable_function_entries lists where. Not
 * traced, the program runs its NOPs and pays nothing. Under kft record
 * the runtime turns each into a call to a stub placed within reach of
 * the module, which jumps to __fentry__: from there on it is -pg -mfentry
 * (hooks.c). Patching happens at start, before main, and for a library
 * opened with dlopen, when it is opened.
 */
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../symbols/elf-symtab.h"
#include "runtime.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

void __fentry__(void);

static bool is_nop5(const unsigned char *p)
{
	static const unsigned char nops[5] = { 0x90, 0x90, 0x90, 0x90, 0x90 };

	/* five one-byte NOPs (gcc), or nopl disp8(%rax,%rax,1) (clang) */
	return !memcmp(p, nops, 5) ||
	       (p[0] == 0x0f && p[1] == 0x1f && p[2] == 0x44 && p[3] == 0x00);
}

static bool is_patched(const unsigned char *p, uintptr_t stub)
{
	int32_t rel;

	memcpy(&rel, p + 1, sizeof(rel));
	return p[0] == 0xe8 && (uintptr_t)p + 5 + (intptr_t)rel == stub;
}

/* A page within 2 GiB of addr holding "jmp *0(%rip); .quad __fentry__". */
static KFT_NOTRACE uintptr_t make_stub(uintptr_t addr)
{
	static const unsigned char jmp[6] = { 0xff, 0x25, 0x00, 0x00, 0x00, 0x00 };
	long page = sysconf(_SC_PAGESIZE);

	/* below the code, then above it (a non-PIE program sits low) */
	for (int step = 1; step < 128; step++) {
		uintptr_t off = (uintptr_t)((step + 1) / 2) * (16UL << 20);
		uintptr_t hint = (step % 2 ? addr - off : addr + off) & ~(uintptr_t)(page - 1);
		unsigned char *p;
		uintptr_t target = (uintptr_t)__fentry__;

		if ((step % 2 && off >= addr) || hint < (uintptr_t)page)
			continue;
		p = mmap((void *)hint, (size_t)page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (p == MAP_FAILED)
			continue;
		if ((uintptr_t)p != hint) {	/* an old kernel took the hint as a hint */
			munmap(p, (size_t)page);
			continue;
		}
		memcpy(p, jmp, sizeof(jmp));
		memcpy(p + sizeof(jmp), &target, sizeof(target));
		if (mprotect(p, (size_t)page, PROT_READ | PROT_EXEC)) {
			munmap(p, (size_t)page);
			return 0;
		}
		return (uintptr_t)p;
	}
	return 0;
}

/* Turn one module's NOPs into calls. */
static KFT_NOTRACE void patch_module(const char *path, uintptr_t base)
{
	long page = sysconf(_SC_PAGESIZE);
	const uintptr_t *entry, *end;
	uintptr_t stub = 0, open_page = 0;
	struct kft_elf elf;

	if (kft_elf_open_headers(&elf, path, NULL))
		return;
	if (!elf.patch_size)
		goto out;
	entry = (const uintptr_t *)(base + elf.patch_vaddr);
	end = entry + elf.patch_size / sizeof(*entry);
	for (; entry < end; entry++) {
		unsigned char *p = (unsigned char *)*entry;
		uintptr_t pg = (uintptr_t)p & ~(uintptr_t)(page - 1);
		int32_t rel;

		if (!stub && !(stub = make_stub((uintptr_t)p)))
			break;
		if (!is_nop5(p) || is_patched(p, stub))
			continue;
		if ((intptr_t)(stub - ((uintptr_t)p + 5)) != (int32_t)(stub - ((uintptr_t)p + 5)))
			continue;	/* out of reach of this stub */
		if (pg != open_page) {
			if (open_page)
				mprotect((void *)open_page, 2 * (size_t)page, PROT_READ | PROT_EXEC);
			/* two pages: the five bytes may straddle a page boundary */
			if (mprotect((void *)pg, 2 * (size_t)page, PROT_READ | PROT_WRITE | PROT_EXEC))
				break;
			open_page = pg;
		}
		rel = (int32_t)(stub - ((uintptr_t)p + 5));
		memcpy(p + 1, &rel, sizeof(rel));
		__atomic_store_n(p, 0xe8, __ATOMIC_RELEASE);	/* the opcode last */
	}
	if (open_page)
		mprotect((void *)open_page, 2 * (size_t)page, PROT_READ | PROT_EXEC);
out:
	kft_elf_close(&elf);
}

static KFT_NOTRACE int patch_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	const char *path = info->dlpi_name;

	(void)size;
	(void)arg;
	if (!path || !*path)
		path = "/proc/self/exe";
	else if (path[0] != '/')
		return 0;	/* the vDSO */
	patch_module(path, info->dlpi_addr);
	return 0;
}

KFT_NOTRACE void kft_patch_all(void)
{
	dl_iterate_phdr(patch_object, NULL);
}
