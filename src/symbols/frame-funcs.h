/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The functions of a file without a .symtab (stripped, and no debug file
 * found), from its .eh_frame: the tools', not the runtime's.
 */
#ifndef KFT_FRAME_FUNCS_H
#define KFT_FRAME_FUNCS_H

#include "../common/error.h"
#include "elf-symtab.h"

/* Add to elf the functions its .eh_frame describes and no symbol names,
 * as func_ADDR (made). Nothing for a file with a .symtab, or whose
 * .eh_frame_hdr is encoded otherwise than compilers do. 0, or -1. */
int kft_elf_add_frame_functions(struct kft_elf *elf, struct kft_error *err);

/* For a reader of trace directory dir: the same, where dir's patch plan
 * is for elf, the file at path (kft record patched it as it loaded, its
 * functions found so; other stripped files read as they always did). */
void kft_elf_add_planned_functions(struct kft_elf *elf, const char *dir, const char *path);

/*
 * What a file's unwind table (.eh_frame) says of the state at an
 * address: a function's entry begins with the caller's frame alone (the
 * CFA at rsp+8, no register saved); the cold part of a function, entered
 * by a jump from inside it, begins inside its frame.
 */
struct kft_frame_cfi;

/* elf's unwind table, or NULL (none, or no memory): then nothing is
 * known. kft_frame_cfi_close(NULL) does nothing. */
struct kft_frame_cfi *kft_frame_cfi_open(const struct kft_elf *elf);
void kft_frame_cfi_close(struct kft_frame_cfi *cfi);

/* 1 if the code at addr runs inside a frame set up before it (a cold
 * part), 0 if as a function's first instruction, -1 if not known. */
int kft_frame_cfi_inside(struct kft_frame_cfi *cfi, uint64_t addr);

/* Call fn(ctx, address) for each address a relative relocation of elf
 * writes into its data (a PIE's tables of function pointers), until it
 * returns non-zero; what it returned, or 0. */
int kft_elf_each_relative(const struct kft_elf *elf, int (*fn)(void *ctx, uint64_t addr), void *ctx);

#endif
