/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Symbol maps for addr2sym and sym2addr: a System.map, /proc/kallsyms
 * (module lines included) or an ELF file. Text symbols only: data and
 * local labels never name a function.
 */
#ifndef KFT_SYMMAP_H
#define KFT_SYMMAP_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "../common/error.h"

struct kft_mapsym {
	uint64_t addr;
	char *name;
	char *module;		/* kallsyms "[mod]", or NULL */
};

struct kft_symmap {
	struct kft_mapsym *syms;	/* sorted by address */
	size_t nsyms;
	int addr_digits;		/* hex digits the map prints (8 or 16) */
	bool pie;			/* an ELF file of type ET_DYN (a PIE or a
					 * library): its symbols are at link
					 * addresses, the program ran it elsewhere */
	char *path;			/* the file it came from */
};

int kft_symmap_load(struct kft_symmap *m, const char *path, struct kft_error *err);
void kft_symmap_free(struct kft_symmap *m);

/* The symbol at or below addr, or NULL when addr is outside the map. */
const struct kft_mapsym *kft_symmap_lookup(const struct kft_symmap *m, uint64_t addr);

/* Every symbol called name: returns how many, stores up to max. */
size_t kft_symmap_find(const struct kft_symmap *m, const char *name,
		       const struct kft_mapsym **out, size_t max);

#endif
