// SPDX-License-Identifier: GPL-2.0-only
/* Symbol files: the input read as an ELF file (symbol tables, program
 * headers, MiniDebugInfo) and as a System.map or kallsyms text, then
 * looked up at a few addresses and names. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "symbols/elf-symtab.h"
#include "symbols/symmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct kft_error err;
	struct kft_symmap map;
	struct kft_elf elf;
	const struct kft_mapsym *found[4];
	uint64_t addrs[4], vaddr;

	if (!kft_elf_open(&elf, path, &err)) {
		for (uint64_t a = 0; a < 0x3000; a += 0x100)
			kft_elf_lookup(&elf, a);
		kft_elf_find(&elf, "main", addrs, 4);
		kft_elf_offset_to_vaddr(&elf, 0x1000, &vaddr);
		kft_elf_close(&elf);
	}
	if (!kft_symmap_load(&map, path, &err)) {
		kft_symmap_lookup(&map, 0xffffffff81000000ULL);
		if (map.nsyms)
			kft_symmap_lookup(&map, map.syms[map.nsyms / 2].addr + 1);
		kft_symmap_find(&map, "start_kernel", found, 4);
		kft_symmap_free(&map);
	}
	return 0;
}
