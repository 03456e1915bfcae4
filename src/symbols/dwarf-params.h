/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Each function's parameters and result from a program's debug
 * information (elfutils' libdw), as the args specs kft record -a saves.
 */
#ifndef KFT_DWARF_PARAMS_H
#define KFT_DWARF_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../common/error.h"
#include "../config/config.h"

struct kft_dwarf_func {
	char *name;		/* its symbol's */
	uint64_t addr;		/* link-time */
	struct kft_argspec spec;	/* its parameters in their order, and retval */
	bool partial;		/* some could not be saved (a struct by value, ...) */
	bool fp_unsure;		/* none of its floating-point registers can be: it
				 * takes a double on the stack, and the hook is
				 * mcount, which unoptimized code may call with
				 * that double in xmm0 */
};

struct kft_dwarf_funcs {
	struct kft_dwarf_func *v;	/* by name */
	size_t n;
};

struct kft_elf;

/* The functions of path (an ELF file, open as elf: its symbols name
 * them) that have code and whose parameters or result can be saved: 0,
 * or -1 with err (no debug information, ...). Free with
 * kft_dwarf_funcs_free(). */
int kft_dwarf_funcs_read(const struct kft_elf *elf, const char *path,
			 struct kft_dwarf_funcs *out, struct kft_error *err);
void kft_dwarf_funcs_free(struct kft_dwarf_funcs *f);

/* The enumerators of each enum type of path called types[i] (or a
 * typedef of one so called), as format/enum-defs.h's text to out;
 * found[i] says which were. 0, or -1 with err (no debug information). */
int kft_dwarf_enums_write(const char *path, const char *const *types, size_t n, bool *found,
			  FILE *out, struct kft_error *err);

#endif
