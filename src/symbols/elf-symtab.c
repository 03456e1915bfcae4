// SPDX-License-Identifier: LGPL-2.1
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/populate.h"
#include "demangle.h"
#include "elf-symtab.h"
#include "xz.h"

static bool in_file(const struct kft_elf *elf, uint64_t off, uint64_t len)
{
	return off <= elf->map_size && len <= elf->map_size - off;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct kft_elf_sym *x = a, *y = b;

	size_t xu, yu, xn, yn;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* for aliases, prefer global names, then the longer size, then the
	 * public name (malloc, not __libc_malloc): fewer leading
	 * underscores, a strong one before a weak alias (strchr, not
	 * index; but close, not __close), shorter, then by the letters, so
	 * that the choice never depends on the table's order */
	if (x->local != y->local)
		return x->local ? 1 : -1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	xu = strspn(x->name, "_");
	yu = strspn(y->name, "_");
	if (xu != yu)
		return xu < yu ? -1 : 1;
	if (x->weak != y->weak)
		return x->weak ? 1 : -1;
	xn = strlen(x->name);
	yn = strlen(y->name);
	if (xn != yn)
		return xn < yn ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Sift v[i] down the heap v[0..n). */
static void sift_down(struct kft_elf_sym *v, size_t i, size_t n)
{
	for (;;) {
		size_t c = 2 * i + 1;
		struct kft_elf_sym tmp;

		if (c >= n)
			return;
		if (c + 1 < n && cmp_sym(&v[c + 1], &v[c]) > 0)
			c++;
		if (cmp_sym(&v[i], &v[c]) >= 0)
			return;
		tmp = v[i];
		v[i] = v[c];
		v[c] = tmp;
		i = c;
	}
}

/* v[0..n) by cmp_sym, in place: qsort would allocate a copy as large
 * (a debug file's functions take a few hundred kilobytes), a page fault
 * a page. cmp_sym is a total order: the sort need not be stable. */
static void sort_syms(struct kft_elf_sym *v, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(v, i, n);
	while (n > 1) {
		struct kft_elf_sym tmp = v[0];

		v[0] = v[--n];
		v[n] = tmp;
		sift_down(v, 0, n);
	}
}

/* A hook's name: defined (libkft, or libc's mcount) or called (undefined:
 * the file is instrumented and calls it) */
static void note_instrumentation(struct kft_elf *elf, const char *name, bool undefined)
{
	if (!strcmp(name, "__cyg_profile_func_enter") || !strcmp(name, "mcount") ||
	    !strcmp(name, "__fentry__") || !strcmp(name, "_mcount")) {
		elf->instrumented = true;
		elf->calls_hooks |= undefined;
	}
}

/* Whether symbol i of a .dynsym whose versions are versym (or NULL) is
 * an old version kept for old programs (hidden: not the one a program
 * built now links to) */
static bool old_version(const struct kft_elf *elf, const Elf64_Shdr *versym, size_t i)
{
	uint16_t v;

	if (!versym || versym->sh_entsize != sizeof(v) || (i + 1) * sizeof(v) > versym->sh_size ||
	    !in_file(elf, versym->sh_offset, versym->sh_size))
		return false;
	memcpy(&v, (const char *)elf->map + versym->sh_offset + i * sizeof(v), sizeof(v));
	return v & 0x8000;
}

/* Read the functions of one symbol table section into elf->syms. */
static int read_symtab(struct kft_elf *elf, const Elf64_Shdr *sh, const Elf64_Shdr *strsh,
		       const Elf64_Shdr *versym, struct kft_error *err, const char *path)
{
	const char *base = elf->map, *file = NULL;
	size_t n, i, kept = 0;

	if (sh->sh_entsize != sizeof(Elf64_Sym) || !in_file(elf, sh->sh_offset, sh->sh_size) ||
	    !in_file(elf, strsh->sh_offset, strsh->sh_size) || !strsh->sh_size)
		return kft_error_set(err, "%s: corrupt symbol table", path);
	n = sh->sh_size / sizeof(Elf64_Sym);
	/* the table and its names are read whole: mapped in at once */
	kft_populate(base + sh->sh_offset, sh->sh_size, MADV_POPULATE_READ);
	kft_populate(base + strsh->sh_offset, strsh->sh_size, MADV_POPULATE_READ);
	/* room for the functions alone (a debug file's table holds as many
	 * other symbols again), faulted in at once */
	for (i = 0; i < n; i++) {
		Elf64_Sym sym;

		memcpy(&sym, base + sh->sh_offset + i * sizeof(sym), sizeof(sym));
		kept += (ELF64_ST_TYPE(sym.st_info) == STT_FUNC ||
			 ELF64_ST_TYPE(sym.st_info) == STT_GNU_IFUNC) && sym.st_shndx != SHN_UNDEF;
	}
	elf->syms = calloc(kept ? kept : 1, sizeof(*elf->syms));
	if (!elf->syms)
		return kft_error_set(err, "%s: out of memory", path);
	kft_populate(elf->syms, kept * sizeof(*elf->syms), MADV_POPULATE_WRITE);
	kept = 0;
	for (i = 0; i < n; i++) {
		Elf64_Sym sym;
		const char *name, *version;

		memcpy(&sym, base + sh->sh_offset + i * sizeof(sym), sizeof(sym));
		if (sym.st_name >= strsh->sh_size)
			continue;
		name = base + strsh->sh_offset + sym.st_name;
		if (!memchr(name, '\0', strsh->sh_size - sym.st_name))
			continue;
		/* a compilation unit's local symbols follow its STT_FILE entry */
		if (ELF64_ST_TYPE(sym.st_info) == STT_FILE) {
			file = *name ? name : NULL;
			continue;
		}
		if (sym.st_shndx == SHN_UNDEF) {
			note_instrumentation(elf, name, true);
			continue;
		}
		if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC &&
		    ELF64_ST_TYPE(sym.st_info) != STT_GNU_IFUNC)
			continue;
		if (!*name || !sym.st_value)
			continue;
		note_instrumentation(elf, name, false);
		/* of a versioned function (a C library's), the version programs
		 * link to now goes by its name alone (dlsym@@GLIBC_2.34: dlsym);
		 * the old ones kept for old programs (dlsym@GLIBC_2.2.5) are
		 * left out, or a name would have two functions */
		version = strchr(name, '@');
		if (version == name)
			version = NULL;
		if (old_version(elf, versym, i) || (version && !strstr(version, "@@")))
			continue;
		if (version) {
			char **more = realloc(elf->owned, (elf->nowned + 1) * sizeof(*more));

			if (!more || !(more[elf->nowned] = strndup(name, (size_t)(version - name)))) {
				if (more)
					elf->owned = more;
				return kft_error_set(err, "%s: out of memory", path);
			}
			elf->owned = more;
			name = more[elf->nowned++];
		}
		elf->syms[kept].addr = sym.st_value;
		elf->syms[kept].size = sym.st_size;
		elf->syms[kept].name = name;
		elf->syms[kept].local = ELF64_ST_BIND(sym.st_info) == STB_LOCAL;
		elf->syms[kept].weak = ELF64_ST_BIND(sym.st_info) == STB_WEAK;
		elf->syms[kept].file = elf->syms[kept].local ? file : NULL;
		kept++;
	}
	elf->nsyms = kept;
	sort_syms(elf->syms, kept);
	return 0;
}

/* Undefined dynamic symbols tell whether the program calls the hooks. */
static void scan_dynsym_imports(struct kft_elf *elf, const Elf64_Shdr *sh, const Elf64_Shdr *strsh)
{
	const char *base = elf->map;

	if (sh->sh_entsize != sizeof(Elf64_Sym) || !in_file(elf, sh->sh_offset, sh->sh_size) ||
	    !in_file(elf, strsh->sh_offset, strsh->sh_size))
		return;
	elf->dynsym_off = sh->sh_offset;
	elf->dynsym_size = sh->sh_size;
	elf->dynstr_off = strsh->sh_offset;
	elf->dynstr_size = strsh->sh_size;
	for (size_t i = 0; i < sh->sh_size / sizeof(Elf64_Sym); i++) {
		Elf64_Sym sym;

		memcpy(&sym, base + sh->sh_offset + i * sizeof(sym), sizeof(sym));
		if (sym.st_name < strsh->sh_size &&
		    memchr(base + strsh->sh_offset + sym.st_name, '\0', strsh->sh_size - sym.st_name))
			note_instrumentation(elf, base + strsh->sh_offset + sym.st_name,
					     sym.st_shndx == SHN_UNDEF);
	}
}

/* -fpatchable-function-entry lists each function's NOPs in this section. */
static bool is_patch_section(const struct kft_elf *elf, const Elf64_Ehdr *eh,
			     const Elf64_Shdr *shdrs, unsigned int i)
{
	static const char name[] = "__patchable_function_entries";
	const Elf64_Shdr *names;

	if (eh->e_shstrndx >= eh->e_shnum)
		return false;
	names = &shdrs[eh->e_shstrndx];
	return in_file(elf, names->sh_offset, names->sh_size) &&
	       shdrs[i].sh_name < names->sh_size &&
	       names->sh_size - shdrs[i].sh_name >= sizeof(name) &&
	       !memcmp((const char *)elf->map + names->sh_offset + shdrs[i].sh_name, name,
		       sizeof(name));
}

static void note_patch_section(struct kft_elf *elf, const Elf64_Shdr *sh)
{
	if (!(sh->sh_flags & SHF_ALLOC) || !sh->sh_size)
		return;
	elf->patch_vaddr = sh->sh_addr;
	elf->patch_size = sh->sh_size;
	elf->instrumented = true;
}

/* The GNU build-id in a note area, if there is one. */
static void read_build_id(struct kft_elf *elf, uint64_t off, uint64_t size)
{
	const unsigned char *p;

	if (!in_file(elf, off, size))
		return;
	p = (const unsigned char *)elf->map + off;
	while (size >= 12) {
		uint32_t namesz, descsz, type;
		uint64_t len;

		memcpy(&namesz, p, 4);
		memcpy(&descsz, p + 4, 4);
		memcpy(&type, p + 8, 4);
		len = 12 + (((uint64_t)namesz + 3) & ~3ULL) + (((uint64_t)descsz + 3) & ~3ULL);
		if (len > size)
			return;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + 12, "GNU", 4) && descsz &&
		    descsz <= sizeof(elf->build_id)) {
			memcpy(elf->build_id, p + 16, descsz);
			elf->build_id_len = descsz;
			return;
		}
		p += len;
		size -= len;
	}
}

/* A section's name, or "" */
static const char *section_name(const struct kft_elf *elf, const Elf64_Ehdr *eh,
				const Elf64_Shdr *shdrs, unsigned int i)
{
	const Elf64_Shdr *names;
	const char *s;

	if (eh->e_shstrndx >= eh->e_shnum)
		return "";
	names = &shdrs[eh->e_shstrndx];
	if (!in_file(elf, names->sh_offset, names->sh_size) || shdrs[i].sh_name >= names->sh_size)
		return "";
	s = (const char *)elf->map + names->sh_offset + shdrs[i].sh_name;
	return memchr(s, '\0', names->sh_size - shdrs[i].sh_name) ? s : "";
}

static void read_debuglink(struct kft_elf *elf, const Elf64_Shdr *sh)
{
	const char *s;
	size_t n;

	if (!in_file(elf, sh->sh_offset, sh->sh_size))
		return;
	s = (const char *)elf->map + sh->sh_offset;
	n = strnlen(s, sh->sh_size);
	if (n && n < sh->sh_size && n < sizeof(elf->debuglink))
		memcpy(elf->debuglink, s, n + 1);
}

static int open_elf(struct kft_elf *elf, const char *path, bool symbols, struct kft_error *err);

/* A stripped file's symbols from its separate debug file: by build-id,
 * then by .gnu_debuglink beside it, in .debug/ and under KFT_DEBUG_DIR.
 * 0 if found (elf->syms are its, names in elf->debug_map). */
/* elf's symbols are other's, whose file stays mapped for their names. */
static void take_symbols(struct kft_elf *elf, const struct kft_elf *other)
{
	elf->syms = other->syms;
	elf->nsyms = other->nsyms;
	elf->owned = other->owned;
	elf->nowned = other->nowned;
	elf->debug_map = other->map;
	elf->debug_size = other->map_size;
}

static int use_debug_file(struct kft_elf *elf, const char *path)
{
	char cand[4][4608], dir[4096];
	const char *slash = strrchr(path, '/');
	int n = 0;

	if (elf->build_id_len >= 2) {
		char *p = cand[n++];

		p += sprintf(p, "%s/.build-id/%02x/", KFT_DEBUG_DIR, elf->build_id[0]);
		for (size_t i = 1; i < elf->build_id_len; i++)
			p += sprintf(p, "%02x", elf->build_id[i]);
		strcpy(p, ".debug");
	}
	if (elf->debuglink[0] && slash && (size_t)(slash - path) < sizeof(dir)) {
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
		snprintf(cand[n++], sizeof(cand[0]), "%s/%s", dir, elf->debuglink);
		snprintf(cand[n++], sizeof(cand[0]), "%s/.debug/%s", dir, elf->debuglink);
		snprintf(cand[n++], sizeof(cand[0]), "%s%s/%s", KFT_DEBUG_DIR, dir, elf->debuglink);
	}
	for (int i = 0; i < n; i++) {
		struct kft_elf dbg;

		if (!strcmp(cand[i], path) || open_elf(&dbg, cand[i], true, NULL))
			continue;
		/* the same build (where both say), with a symbol table of its own */
		if (!dbg.nsyms || dbg.debug_map ||
		    (elf->build_id_len && (dbg.build_id_len != elf->build_id_len ||
					   memcmp(dbg.build_id, elf->build_id, elf->build_id_len)))) {
			kft_elf_close(&dbg);
			continue;
		}
		take_symbols(elf, &dbg);
		return 0;
	}
	return -1;
}

static int parse(struct kft_elf *elf, const char *path, bool symbols, struct kft_error *err);

/* MiniDebugInfo: the symbols of a stripped file, as a small ELF file
 * compressed with xz in its .gnu_debugdata section. */
static int use_minidebuginfo(struct kft_elf *elf, const Elf64_Shdr *sh)
{
	struct kft_elf mini;
	void *data;
	size_t size;

	if (!in_file(elf, sh->sh_offset, sh->sh_size) ||
	    kft_xz_inflate((const char *)elf->map + sh->sh_offset, sh->sh_size, &data, &size))
		return -1;
	memset(&mini, 0, sizeof(mini));
	mini.map = data;
	mini.map_size = size;
	/* with a symbol table of its own, as for a debug file */
	if (parse(&mini, "MiniDebugInfo", true, NULL) || !mini.nsyms || mini.debug_map) {
		kft_elf_close(&mini);
		return -1;
	}
	take_symbols(elf, &mini);
	return 0;
}

static int parse(struct kft_elf *elf, const char *path, bool symbols, struct kft_error *err)
{
	const unsigned char *base = elf->map;
	const Elf64_Shdr *symtab = NULL, *dynsym = NULL, *debugdata = NULL, *versym = NULL, *shdrs;
	Elf64_Ehdr eh;

	if (elf->map_size < sizeof(eh) || memcmp(base, ELFMAG, SELFMAG))
		return kft_error_set(err, "%s: not an ELF file", path);
	memcpy(&eh, base, sizeof(eh));
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return kft_error_set(err, "%s: only 64-bit little-endian ELF is supported", path);
	elf->dynamic = eh.e_type == ET_DYN;
	if (eh.e_phentsize == sizeof(Elf64_Phdr) &&
	    in_file(elf, eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr))) {
		for (unsigned int i = 0; i < eh.e_phnum; i++) {
			Elf64_Phdr ph;

			memcpy(&ph, base + eh.e_phoff + i * sizeof(ph), sizeof(ph));
			if (ph.p_type == PT_INTERP)
				elf->has_interp = true;
			if (ph.p_type == PT_NOTE && !elf->build_id_len)
				read_build_id(elf, ph.p_offset, ph.p_filesz);
			if (ph.p_type == PT_LOAD && elf->nloads < 16) {
				elf->loads[elf->nloads].offset = ph.p_offset;
				elf->loads[elf->nloads].vaddr = ph.p_vaddr;
				elf->loads[elf->nloads].filesz = ph.p_filesz;
				elf->nloads++;
			}
		}
	}
	if (eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    !in_file(elf, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr)))
		return kft_error_set(err, "%s: corrupt section headers", path);
	shdrs = (const Elf64_Shdr *)(base + eh.e_shoff);
	if ((uintptr_t)shdrs % _Alignof(Elf64_Shdr))
		return kft_error_set(err, "%s: misaligned section headers", path);
	for (unsigned int i = 0; i < eh.e_shnum; i++) {
		if (shdrs[i].sh_type == SHT_SYMTAB)
			symtab = &shdrs[i];
		else if (shdrs[i].sh_type == SHT_DYNSYM)
			dynsym = &shdrs[i];
		else if (shdrs[i].sh_type == SHT_GNU_versym)
			versym = &shdrs[i];
		else if (is_patch_section(elf, &eh, shdrs, i))
			note_patch_section(elf, &shdrs[i]);
		else if (shdrs[i].sh_type == SHT_PREINIT_ARRAY && shdrs[i].sh_size)
			elf->preinit = true;
		else if (shdrs[i].sh_type == SHT_NOTE && !elf->build_id_len)
			read_build_id(elf, shdrs[i].sh_offset, shdrs[i].sh_size);
		else if (shdrs[i].sh_type == SHT_PROGBITS &&
			 !strcmp(section_name(elf, &eh, shdrs, i), ".gnu_debuglink"))
			read_debuglink(elf, &shdrs[i]);
		else if (shdrs[i].sh_type == SHT_PROGBITS &&
			 !strcmp(section_name(elf, &eh, shdrs, i), ".gnu_debugdata"))
			debugdata = &shdrs[i];
	}
	if (dynsym && dynsym->sh_link < eh.e_shnum)
		scan_dynsym_imports(elf, dynsym, &shdrs[dynsym->sh_link]);
	if (!symtab && symbols && !use_debug_file(elf, path))
		return 0;	/* the debug file's .symtab it is */
	if (!symtab && symbols && debugdata && !use_minidebuginfo(elf, debugdata))
		return 0;
	if (symtab)
		versym = NULL;	/* (.dynsym's) */
	else
		symtab = dynsym;
	if (!symtab || !symbols)
		return 0;
	if (symtab->sh_link >= eh.e_shnum)
		return kft_error_set(err, "%s: corrupt symbol table link", path);
	return read_symtab(elf, symtab, &shdrs[symtab->sh_link], versym, err, path);
}

static int open_elf(struct kft_elf *elf, const char *path, bool symbols, struct kft_error *err)
{
	struct stat st;
	int fd;

	memset(elf, 0, sizeof(*elf));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kft_error_set(err, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		close(fd);
		return kft_error_set(err, "%s: not a regular file", path);
	}
	elf->map_size = (size_t)st.st_size;
	elf->map = mmap(NULL, elf->map_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (elf->map == MAP_FAILED) {
		elf->map = NULL;
		return kft_error_set(err, "%s: cannot map: %s", path, strerror(errno));
	}
	if (parse(elf, path, symbols, err)) {
		kft_elf_close(elf);
		return -1;
	}
	return 0;
}

int kft_elf_open(struct kft_elf *elf, const char *path, struct kft_error *err)
{
	return open_elf(elf, path, true, err);
}

int kft_elf_open_headers(struct kft_elf *elf, const char *path, struct kft_error *err)
{
	return open_elf(elf, path, false, err);
}

void kft_elf_close(struct kft_elf *elf)
{
	if (elf->map)
		munmap(elf->map, elf->map_size);
	if (elf->debug_map)
		munmap(elf->debug_map, elf->debug_size);
	free(elf->syms);
	for (size_t i = 0; i < elf->nowned; i++)
		free(elf->owned[i]);
	free(elf->owned);
	memset(elf, 0, sizeof(*elf));
}

const struct kft_elf_sym *kft_elf_lookup(const struct kft_elf *elf, uint64_t vaddr)
{
	size_t lo = 0, hi = elf->nsyms;
	const struct kft_elf_sym *s;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (elf->syms[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &elf->syms[lo - 1];
	/* skip back over aliases to the preferred (first sorted) name */
	while (s > elf->syms && s[-1].addr == s->addr)
		s--;
	if (s->size && vaddr >= s->addr + s->size) {
		/* a sized symbol that ends before vaddr: look for an enclosing one */
		for (const struct kft_elf_sym *t = &elf->syms[lo - 1]; t >= elf->syms; t--) {
			if (vaddr < t->addr + t->size)
				return t;
			if (t->addr + 0x100000 < vaddr)
				break;
		}
		return NULL;
	}
	return s;
}

/* A C++ name as written in the source, for a mangled symbol. */
static bool cxx_match(const char *sym, const char *name)
{
	char *d;
	bool yes;

	if (strncmp(sym, "_Z", 2) || !(d = kft_demangle(sym)))
		return false;
	yes = kft_demangled_matches(d, name);
	free(d);
	return yes;
}

size_t kft_elf_find(const struct kft_elf *elf, const char *name, uint64_t *addrs, size_t max)
{
	bool cxx = kft_is_cxx_name(name);
	size_t found = 0;

	for (size_t i = 0; i < elf->nsyms; i++) {
		if (strcmp(elf->syms[i].name, name) && !(cxx && cxx_match(elf->syms[i].name, name)))
			continue;
		if (found && addrs[found < max ? found - 1 : max - 1] == elf->syms[i].addr)
			continue;
		if (found < max)
			addrs[found] = elf->syms[i].addr;
		found++;
	}
	return found;
}

size_t kft_elf_find_glob(const struct kft_elf *elf, const char *glob, uint64_t *addrs,
			 size_t max)
{
	size_t found = 0;

	for (size_t i = 0; i < elf->nsyms; i++) {
		if (fnmatch(glob, elf->syms[i].name, 0))
			continue;
		/* aliases share an address: the syms are sorted by it */
		if (found && found <= max && addrs[found - 1] == elf->syms[i].addr)
			continue;
		if (found < max)
			addrs[found] = elf->syms[i].addr;
		found++;
	}
	return found;
}

size_t kft_elf_find_imports(const struct kft_elf *elf, const char *glob)
{
	const char *base = elf->map;
	size_t n = 0;

	for (uint64_t i = 0; i < elf->dynsym_size / sizeof(Elf64_Sym); i++) {
		Elf64_Sym sym;
		const char *name;

		memcpy(&sym, base + elf->dynsym_off + i * sizeof(sym), sizeof(sym));
		if (sym.st_shndx != SHN_UNDEF || ELF64_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_name >= elf->dynstr_size)
			continue;
		name = base + elf->dynstr_off + sym.st_name;
		if (memchr(name, '\0', elf->dynstr_size - sym.st_name) && *name &&
		    !fnmatch(glob, name, 0))
			n++;
	}
	return n;
}

bool kft_elf_offset_to_vaddr(const struct kft_elf *elf, uint64_t offset, uint64_t *vaddr)
{
	for (size_t i = 0; i < elf->nloads; i++) {
		const struct kft_elf_load *l = &elf->loads[i];

		if (offset >= l->offset && offset < l->offset + l->filesz) {
			*vaddr = l->vaddr + (offset - l->offset);
			return true;
		}
	}
	return false;
}
