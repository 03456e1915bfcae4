// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ground truth of tests/fidelity for library calls: an audit library
 * (LD_AUDIT, rtld-audit(7)) through which the dynamic linker reports
 * every call the program makes through its PLT (la_pltenter), without
 * kft. Only the program's own calls are counted (the objects that bind
 * from it), by the name called, into the table of count-table.h in the
 * file COUNT_LIBCALLS_FILE, and only in an instrumented program image
 * (one exec'd from a traced one that is not is not traced, nor are its
 * library calls). Without the file (the variable empty), nothing is
 * audited: the run differs from one without the library only by its
 * loading.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <gelf.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

#include "count-table.h"

static struct count_slot *table;

/* The key: a hash of the name (FNV-1a), never 0 */
static void count(const char *name)
{
	uint64_t key = 1469598103934665603ULL;
	struct count_slot *s;
	bool fresh;

	if (!table)
		return;
	for (const char *p = name; *p; p++)
		key = (key ^ (unsigned char)*p) * 1099511628211ULL;
	s = count_table_add(table, key | 1, &fresh);
	if (fresh)
		strncpy(s->name, name, sizeof(s->name) - 1);
}

unsigned int la_version(unsigned int version)
{
	table = count_table_map("COUNT_LIBCALLS_FILE");
	return version;
}

static bool is_hook(const char *name)
{
	return name && (!strcmp(name, "__cyg_profile_func_enter") || !strcmp(name, "mcount") ||
			!strcmp(name, "_mcount") || !strcmp(name, "__fentry__"));
}

/* Whether this process's program is instrumented, as kft tells: it has
 * patchable entries, or calls one of the hooks (an undefined symbol). */
static bool program_instrumented(void)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	Elf_Scn *scn = NULL;
	bool yes = false;
	size_t names;
	Elf *e;

	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE ||
	    !(e = elf_begin(fd, ELF_C_READ, NULL))) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	if (elf_getshdrstrndx(e, &names))
		names = 0;
	while (!yes && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		const char *sname;

		if (!gelf_getshdr(scn, &sh))
			continue;
		sname = elf_strptr(e, names, sh.sh_name);
		if (sname && !strcmp(sname, "__patchable_function_entries") && sh.sh_size)
			yes = true;
		if ((sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !(d = elf_getdata(scn, NULL)) || !sh.sh_entsize)
			continue;
		for (size_t i = 0; !yes && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;

			yes = gelf_getsym(d, (int)i, &sym) && sym.st_shndx == SHN_UNDEF &&
			      is_hook(elf_strptr(e, sh.sh_link, sym.st_name));
		}
	}
	elf_end(e);
	close(fd);
	return yes;
}

/* Calls from the program (the first object, whose name is empty) to any
 * object are reported, if it is instrumented; calls between libraries are
 * not. */
unsigned int la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
	(void)lmid;
	(void)cookie;
	if (!table)
		return 0;
	return LA_FLG_BINDTO |
	       (!map->l_name[0] && program_instrumented() ? LA_FLG_BINDFROM : 0);
}

Elf64_Addr la_x86_64_gnu_pltenter(Elf64_Sym *sym, unsigned int ndx, uintptr_t *refcook,
				  uintptr_t *defcook, La_x86_64_regs *regs, unsigned int *flags,
				  const char *symname, long *framesizep)
{
	(void)ndx;
	(void)refcook;
	(void)defcook;
	(void)regs;
	(void)flags;
	(void)framesizep;
	count(symname);
	return sym->st_value;
}
