/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A trace names its own functions: when the program has ended, kft
 * record saves, in the trace's "symbols" file, the build-id, load
 * segments and function symbols of every file the recorded calls were
 * made in. Views read names from there first, so a program rebuilt or
 * deleted after the run, or a trace copied to another machine, still
 * reads right; a file on disk whose build-id is no longer the one saved
 * is said to have changed. Written by symbols-save.c, read here.
 *
 * The file is text, one block per file:
 *   module PATH
 *   build-id HEX           (or -)
 *   dynamic 0|1
 *   load OFFSET VADDR FILESZ        (hex, one line per PT_LOAD)
 *   f ADDR SIZE g|l NAME[<TAB>SOURCE]   (hex; l: static, SOURCE its file)
 */
#ifndef KFT_SAVED_SYMBOLS_H
#define KFT_SAVED_SYMBOLS_H

#include <stddef.h>

#include "../common/error.h"
#include "../format/trace-files.h"
#include "elf-symtab.h"

/* The modules of a symbols file, each as a kft_elf with no file mapped. */
struct kft_saved_module {
	char *path;
	struct kft_elf elf;
};

struct kft_saved_symbols {
	char *text;			/* the file; names point into it */
	struct kft_saved_module *mods;
	size_t nmods;
};

/* Read dir/symbols: 0 (nmods 0 if there is none), or -1 if it is corrupt. */
int kft_symbols_load(struct kft_saved_symbols *ss, const char *dir, struct kft_error *err);
void kft_symbols_free(struct kft_saved_symbols *ss);

#endif
