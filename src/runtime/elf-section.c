// SPDX-License-Identifier: LGPL-2.1
/*
 * One section of an ELF file, found by its name with a few reads: what
 * the runtime needs of a loaded object's file as the program runs (its
 * patchable entries' list), without libelf, which allocates (with the
 * program's malloc) for every file it opens.
 */
#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "runtime.h"

#define BATCH 32	/* section headers read at once */

static KFT_NOTRACE bool read_at(int fd, void *buf, size_t len, uint64_t off)
{
	return pread(fd, buf, len, (off_t)off) == (ssize_t)len;
}

KFT_NOTRACE int kft_elf_section(const char *path, const char *name, uint64_t *addr,
				uint64_t *size)
{
	size_t len = strlen(name) + 1;
	Elf64_Shdr sh[BATCH], names;
	Elf64_Ehdr eh;
	uint64_t count;
	uint32_t strndx;
	char got[64];
	int fd, ret = -1;

	if (len > sizeof(got) || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (!read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    !eh.e_shoff || !read_at(fd, sh, sizeof(sh[0]), eh.e_shoff))
		goto out;
	/* (many sections: their count and the names' index in the first) */
	count = eh.e_shnum ? eh.e_shnum : sh[0].sh_size;
	strndx = eh.e_shstrndx == SHN_XINDEX ? sh[0].sh_link : eh.e_shstrndx;
	if (strndx >= count ||
	    !read_at(fd, &names, sizeof(names), eh.e_shoff + strndx * sizeof(Elf64_Shdr)))
		goto out;
	for (uint64_t i = 0; i < count && ret; i += BATCH) {
		uint64_t n = count - i < BATCH ? count - i : BATCH;

		if (!read_at(fd, sh, n * sizeof(sh[0]), eh.e_shoff + i * sizeof(Elf64_Shdr)))
			break;
		for (uint64_t k = 0; k < n && ret; k++)
			if ((sh[k].sh_flags & SHF_ALLOC) && sh[k].sh_name < names.sh_size &&
			    read_at(fd, got, len, names.sh_offset + sh[k].sh_name) &&
			    !memcmp(got, name, len)) {
				*addr = sh[k].sh_addr;
				*size = sh[k].sh_size;
				ret = 0;
			}
	}
out:
	close(fd);
	return ret;
}
