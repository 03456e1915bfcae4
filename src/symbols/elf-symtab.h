/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The function symbols of an ELF64 file, read through elfutils' libelf.
 * It is linked into the runtime (to resolve config names inside the
 * traced process) and into the tools (to print names), so it depends on
 * libelf and libc alone (liblzma is loaded for MiniDebugInfo only when a
 * file has it, and C++ names use the C++ runtime's demangler, where
 * there is one).
 */
#ifndef KFT_ELF_SYMTAB_H
#define KFT_ELF_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/error.h"

struct kft_elf_sym {
	uint64_t addr;		/* st_value: link-time virtual address */
	uint64_t size;
	const char *name;	/* in the mapped file, or made (a version cut off) */
	bool local;		/* STB_LOCAL: a static function */
	bool weak;		/* STB_WEAK: often an alias of a strong name */
	const char *file;	/* its source file (STT_FILE), for static ones */
	bool made;		/* named by kft, func_ADDR: a stripped file's
				 * function found in its .eh_frame */
};

struct kft_elf_load {
	uint64_t offset;
	uint64_t vaddr;
	uint64_t filesz;
};

struct Elf;
struct Elf_Scn;

struct kft_elf {
	struct Elf *handle;	/* libelf's, over the mapped file (or image) */
	void *image;		/* a MiniDebugInfo file's inflated bytes (munmap) */
	size_t image_size;
	bool dynamic;		/* ET_DYN: PIE or shared library */
	uint64_t entry;		/* e_entry: where a program starts (_start) */
	bool has_interp;	/* dynamically linked executable */
	char interp[256];	/* its dynamic linker (PT_INTERP), or "" */
	struct kft_elf_sym *syms;	/* functions, sorted by addr */
	size_t nsyms;
	bool has_symtab;	/* they are a .symtab's (its own, or its debug
				 * file's), not only its .dynsym's */
	struct kft_elf_load loads[16];
	size_t nloads;
	bool instrumented;	/* references __cyg_profile_func_enter, mcount or __fentry__,
				 * or has patchable function entries */
	bool calls_hooks;	/* imports one of them (undefined): its own code calls
				 * the hooks (libc defines mcount, libkft all) */
	bool calls_pg_hooks;	/* of them mcount or __fentry__: the hooks see the
				 * argument registers (-finstrument-functions' do not) */
	bool calls_mcount;	/* of them mcount (-pg without -mfentry): called
				 * after the prologue, which may have used a
				 * vector register already */
	uint64_t patch_vaddr;	/* __patchable_function_entries: where, in memory */
	uint64_t patch_size;	/* bytes (8 per function) */
	bool preinit;		/* a non-empty .preinit_array: code that runs
				 * before any library's constructor */
	unsigned char build_id[64];	/* NT_GNU_BUILD_ID, build_id_len bytes */
	size_t build_id_len;
	char debuglink[256];	/* .gnu_debuglink's file name, or "" */
	struct kft_elf *debug;	/* the separate debug file (or MiniDebugInfo) the
				 * symbols came from, kept open for their names */
	struct Elf_Scn *dynsym;	/* .dynsym, or NULL */
	char **owned;		/* names made here (a versioned one's, cut) */
	size_t nowned, owned_cap;
	uint32_t *by_name;	/* syms[] by name, once kft_elf_index_names made it */
};

/* Where separate debug files live (Debian's -dbgsym packages). */
#define KFT_DEBUG_DIR "/usr/lib/debug"


/* Map path and read its function symbols: its .symtab, else that of its
 * separate debug file (KFT_DEBUG_DIR/.build-id/xx/rest.debug, or as
 * .gnu_debuglink names it), else that of its MiniDebugInfo (xz.h), else
 * its .dynsym. */
int kft_elf_open(struct kft_elf *elf, const char *path, struct kft_error *err);
/* The same without reading the symbol table (no syms; the patch section,
 * loads and dynamic imports only): for a quick look at every library. */
int kft_elf_open_headers(struct kft_elf *elf, const char *path, struct kft_error *err);
void kft_elf_close(struct kft_elf *elf);

/* Functions at addr[i], size[i] bytes, that no symbol names: named
 * func_ADDR (made), among the others. 0, or -1 out of memory. */
int kft_elf_add_made(struct kft_elf *elf, const uint64_t *addr, const uint64_t *size, size_t n);

/* The function containing vaddr, or NULL. */
const struct kft_elf_sym *kft_elf_lookup(const struct kft_elf *elf, uint64_t vaddr);

/*
 * Link-time addresses of every function called name (static functions
 * may share a name; a C++ name as written in the source, every overload
 * or one by its parameters: demangle.h). Returns how many were found;
 * stores up to max.
 */
size_t kft_elf_find(const struct kft_elf *elf, const char *name, uint64_t *addrs, size_t max);
/* Sort the functions by name too (a few bytes each), so that many
 * kft_elf_find calls take a binary search each instead of a pass over
 * them all (kft record -a's thousands of names). Harmless if it cannot. */
void kft_elf_index_names(struct kft_elf *elf);

/* The addresses of the functions whose names match glob (fnmatch), each
 * once: how many match (the first max go to addrs). */
size_t kft_elf_find_glob(const struct kft_elf *elf, const char *glob, uint64_t *addrs,
			 size_t max);

/* How many functions the file imports (undefined in its .dynsym) whose
 * names match glob (or are that name): its library calls. */
size_t kft_elf_find_imports(const struct kft_elf *elf, const char *glob);
/* Whether the file exports a symbol at vaddr (its .dynsym defines one):
 * other modules may call it there. */
bool kft_elf_exports(const struct kft_elf *elf, uint64_t vaddr);

/* The file's bytes at link-time address vaddr, and how many of its
 * loaded bytes follow (*avail); NULL if the file holds none there. */
const uint8_t *kft_elf_bytes_at(const struct kft_elf *elf, uint64_t vaddr, uint64_t *avail);
/* Turn a file offset (from /proc/PID/maps) into a link-time address. */
bool kft_elf_offset_to_vaddr(const struct kft_elf *elf, uint64_t offset, uint64_t *vaddr);

#endif
