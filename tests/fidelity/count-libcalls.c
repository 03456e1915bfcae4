// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ground truth of tests/fidelity for library calls: an audit library
 * (LD_AUDIT, rtld-audit(7)) through which the dynamic linker reports
 * every call the program makes through its PLT (la_pltenter), without
 * kft. Only the program's own calls are counted (the objects that bind
 * from it), by the name called, into the table of count-table.h in the
 * file COUNT_LIBCALLS_FILE. Without the file (the variable empty),
 * nothing is audited: the run differs from one without the library only
 * by its loading.
 */
#define _GNU_SOURCE
#include <link.h>
#include <string.h>

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

/* Calls from the program (the first object, whose name is empty) to any
 * object are reported; calls between libraries are not. */
unsigned int la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
	(void)lmid;
	(void)cookie;
	if (!table)
		return 0;
	return LA_FLG_BINDTO | (map->l_name[0] ? 0 : LA_FLG_BINDFROM);
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
