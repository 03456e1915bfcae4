/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Addresses to names, after the fact: each process image's saved memory
 * map says which file an address came from, that file's symbol table says
 * which function. Static functions of the same name stay apart because
 * they have different addresses.
 */
#ifndef KFT_SYMBOLIZER_H
#define KFT_SYMBOLIZER_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/error.h"

struct kft_elf;

struct kft_symbolizer;

struct kft_symbol {
	const char *name;	/* NULL if unknown */
	uint64_t offset;	/* addr - start of the function */
	const char *module;	/* the file's path, or NULL */
	uint64_t sym_addr;	/* the symbol's link-time address in module */
	const char *source;	/* the source file of a static function, or NULL */
	const char *params;	/* a C++ function's parameters, "(int)const", or NULL */
};

/* For the trace directory dir: names from the symbols the trace saved
 * (saved-symbols.h), else from the files on disk. Free with
 * kft_symbolizer_free(). */
struct kft_symbolizer *kft_symbolizer_new(const char *dir, struct kft_error *err);
/* The same, from the files on disk only. */
struct kft_symbolizer *kft_symbolizer_new_from_disk(const char *dir, struct kft_error *err);

/* C++ names as the source writes them ("ns::Foo::bar", the default), or
 * as the symbol table does ("_ZN2ns3Foo3barEi": --no-demangle). */
void kft_symbolizer_set_demangle(struct kft_symbolizer *sz, bool on);

/* What the reader should be told: files changed since the trace was
 * recorded, a damaged symbols file (known at once), a missing memory map
 * (known when a call needs it). Those not taken before, each once. */
size_t kft_symbolizer_take_warnings(struct kft_symbolizer *sz, char *const **list);
void kft_symbolizer_free(struct kft_symbolizer *sz);
/* The symbol table of the file at path as sz read it from disk to name an
 * address in it (planned functions included), or NULL if it has not. */
const struct kft_elf *kft_symbolizer_elf_read(const struct kft_symbolizer *sz, const char *path);

/*
 * Which memory map names what process image `session` ran at time ns:
 * an image key for kft_symbolize. It is the session itself, unless the
 * program closed a library (dlclose) and another took its addresses;
 * then the epoch of the map (how many closes came before) is in the upper
 * 32 bits. sz may be NULL.
 */
uint64_t kft_symbolizer_image(struct kft_symbolizer *sz, uint32_t session, uint64_t ns);
/* The epochs of session: 1, or one more than its closes where addresses
 * were reused. Image of epoch e: KFT_IMAGE(session, e). */
uint32_t kft_symbolizer_epochs(struct kft_symbolizer *sz, uint32_t session);
#define KFT_IMAGE(session, epoch) ((uint64_t)(epoch) << 32 | (uint32_t)(session))

/* Look addr up in the memory of an image (a process image's number, or
 * KFT_IMAGE). When only the file is known, sym->module is set and
 * sym->offset is the file offset. */
bool kft_symbolize(struct kft_symbolizer *sz, uint64_t image, uint64_t addr,
		   struct kft_symbol *sym);

/* The same for a return address (a call site): the function that made
 * the call, found one byte back, since the call to a function that does
 * not return (exit, abort) can be its caller's last instruction and its
 * return address the next function's first; offset is still ret's. */
bool kft_symbolize_return(struct kft_symbolizer *sz, uint64_t image, uint64_t ret,
			  struct kft_symbol *sym);

/* "name", "name+0x1c" (with_offset), or "0x..." when unknown; into buf
 * (symbol-text.c). */
const char *kft_symbol_text(struct kft_symbolizer *sz, uint64_t image, uint64_t addr,
			    bool with_offset, char *buf, size_t size);
/* The same for a call site (kft_symbolize_return). */
const char *kft_caller_text(struct kft_symbolizer *sz, uint64_t image, uint64_t ret,
			    bool with_offset, char *buf, size_t size);

#endif
