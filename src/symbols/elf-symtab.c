// SPDX-License-Identifier: LGPL-2.1
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/grow.h"
#include "../common/populate.h"
#include "demangle.h"
#include "elf-symtab.h"
#include "xz.h"

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
		elf->calls_pg_hooks |= undefined && strcmp(name, "__cyg_profile_func_enter");
		elf->calls_mcount |= undefined && (!strcmp(name, "mcount") ||
						   !strcmp(name, "_mcount"));
	}
}

/* Whether symbol i of a .dynsym whose versions are versym (or NULL) is
 * an old version kept for old programs (hidden: not the one a program
 * built now links to) */
static bool old_version(Elf_Data *versym, size_t i)
{
	GElf_Versym v;

	return versym && gelf_getversym(versym, (int)i, &v) && (v & 0x8000);
}

/* A section's data, all of it there: NULL if libelf cannot give it
 * (cut short, or not in the file). */
static Elf_Data *section_data(Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);

	return d && d->d_buf && d->d_size == sh->sh_size ? d : NULL;
}

/* A symbol table section's header and data: how many symbols it holds,
 * 0 if it is no table or cannot be read whole. */
static size_t symbol_table(Elf_Scn *scn, GElf_Shdr *sh, Elf_Data **d)
{
	if (!scn || !gelf_getshdr(scn, sh) || !(*d = section_data(scn, sh)) ||
	    sh->sh_entsize != sizeof(Elf64_Sym))
		return 0;
	return (*d)->d_size / sizeof(Elf64_Sym);
}

/* A function kept: its name, the version programs link to now (a C
 * library's dlsym@@GLIBC_2.34: dlsym); NULL for an old one kept for old
 * programs (dlsym@GLIBC_2.2.5), or a name would have two functions. */
static const char *current_name(struct kft_elf *elf, const char *name, bool old, int *oom)
{
	const char *version = strchr(name, '@');

	if (version == name)
		version = NULL;
	if (old || (version && !strstr(version, "@@")))
		return NULL;
	if (!version)
		return name;
	/* (a C library's debug file has thousands: grown a name at a time,
	 * each copy faulted new pages in) */
	if (kft_grow((void **)&elf->owned, elf->nowned, &elf->owned_cap, sizeof(*elf->owned), 64) ||
	    !(elf->owned[elf->nowned] = strndup(name, (size_t)(version - name)))) {
		*oom = 1;
		return NULL;
	}
	return elf->owned[elf->nowned++];
}

/* Read the functions of one symbol table section into elf->syms. */
static int read_symtab(struct kft_elf *elf, Elf_Scn *scn, Elf_Scn *versym_scn,
		       struct kft_error *err, const char *path)
{
	const char *file = NULL;
	Elf_Data *d, *versym = NULL;
	GElf_Shdr sh, vsh;
	size_t n, i, kept = 0;
	int oom = 0;

	if (!(n = symbol_table(scn, &sh, &d)))
		return kft_error_set(err, "%s: corrupt symbol table", path);
	if (versym_scn && gelf_getshdr(versym_scn, &vsh))
		versym = section_data(versym_scn, &vsh);
	/* the table is read whole: mapped in at once */
	kft_populate(d->d_buf, d->d_size, MADV_POPULATE_READ);
	/* room for the functions alone (a debug file's table holds as many
	 * other symbols again), faulted in at once */
	for (i = 0; i < n; i++) {
		GElf_Sym sym;

		kept += gelf_getsym(d, (int)i, &sym) &&
			(GELF_ST_TYPE(sym.st_info) == STT_FUNC ||
			 GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC) && sym.st_shndx != SHN_UNDEF;
	}
	elf->syms = calloc(kept ? kept : 1, sizeof(*elf->syms));
	if (!elf->syms)
		return kft_error_set(err, "%s: out of memory", path);
	kft_populate(elf->syms, kept * sizeof(*elf->syms), MADV_POPULATE_WRITE);
	kept = 0;
	for (i = 0; i < n; i++) {
		struct kft_elf_sym *s = &elf->syms[kept];
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(d, (int)i, &sym) ||
		    !(name = elf_strptr(elf->handle, sh.sh_link, sym.st_name)))
			continue;
		/* a compilation unit's local symbols follow its STT_FILE entry */
		if (GELF_ST_TYPE(sym.st_info) == STT_FILE) {
			file = *name ? name : NULL;
			continue;
		}
		if (sym.st_shndx == SHN_UNDEF) {
			note_instrumentation(elf, name, true);
			continue;
		}
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
		    GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC)
			continue;
		if (!*name || !sym.st_value)
			continue;
		note_instrumentation(elf, name, false);
		if (!(name = current_name(elf, name, old_version(versym, i), &oom))) {
			if (oom)
				return kft_error_set(err, "%s: out of memory", path);
			continue;
		}
		s->addr = sym.st_value;
		s->size = sym.st_size;
		s->name = name;
		s->local = GELF_ST_BIND(sym.st_info) == STB_LOCAL;
		s->weak = GELF_ST_BIND(sym.st_info) == STB_WEAK;
		s->file = s->local ? file : NULL;
		kept++;
	}
	elf->nsyms = kept;
	sort_syms(elf->syms, kept);
	return 0;
}

/* Undefined dynamic symbols tell whether the program calls the hooks. */
static void scan_dynsym_imports(struct kft_elf *elf, Elf_Scn *scn)
{
	GElf_Shdr sh;
	Elf_Data *d;
	size_t n;

	if (!(n = symbol_table(scn, &sh, &d)))
		return;
	elf->dynsym = scn;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;

		if (gelf_getsym(d, (int)i, &sym) &&
		    (name = elf_strptr(elf->handle, sh.sh_link, sym.st_name)))
			note_instrumentation(elf, name, sym.st_shndx == SHN_UNDEF);
	}
}

/* The GNU build-id in a note area, if there is one. */
static void read_build_id(struct kft_elf *elf, Elf_Data *d)
{
	GElf_Nhdr nh;
	size_t off = 0, name_off, desc_off;

	while (d && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((const char *)d->d_buf + name_off, "GNU", 4) && nh.n_descsz &&
		    nh.n_descsz <= sizeof(elf->build_id)) {
			memcpy(elf->build_id, (const char *)d->d_buf + desc_off, nh.n_descsz);
			elf->build_id_len = nh.n_descsz;
			return;
		}
	}
}

static void read_debuglink(struct kft_elf *elf, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = section_data(scn, sh);
	size_t n;

	if (!d)
		return;
	n = strnlen(d->d_buf, d->d_size);
	if (n && n < d->d_size && n < sizeof(elf->debuglink))
		memcpy(elf->debuglink, d->d_buf, n + 1);
}

static int open_elf(struct kft_elf *elf, const char *path, bool symbols, struct kft_error *err);
static int parse(struct kft_elf *elf, const char *path, bool symbols, struct kft_error *err);

/* elf's symbols are other's, whose file stays open for their names. */
static int take_symbols(struct kft_elf *elf, struct kft_elf *other)
{
	struct kft_elf *keep = malloc(sizeof(*keep));

	if (!keep) {
		kft_elf_close(other);
		return -1;
	}
	elf->syms = other->syms;
	elf->nsyms = other->nsyms;
	elf->owned = other->owned;
	elf->nowned = other->nowned;
	elf->owned_cap = other->owned_cap;
	other->syms = NULL;
	other->nsyms = 0;
	other->owned = NULL;
	other->nowned = 0;
	other->owned_cap = 0;
	*keep = *other;
	elf->debug = keep;
	return 0;
}

/* A stripped file's symbols from its separate debug file: by build-id,
 * then by .gnu_debuglink beside it, in .debug/ and under KFT_DEBUG_DIR.
 * 0 if found (elf->syms are its, their names in elf->debug). */
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
		if (!dbg.nsyms || dbg.debug ||
		    (elf->build_id_len && (dbg.build_id_len != elf->build_id_len ||
					   memcmp(dbg.build_id, elf->build_id, elf->build_id_len)))) {
			kft_elf_close(&dbg);
			continue;
		}
		return take_symbols(elf, &dbg);
	}
	return -1;
}

/* MiniDebugInfo: the symbols of a stripped file, as a small ELF file
 * compressed with xz in its .gnu_debugdata section. */
static int use_minidebuginfo(struct kft_elf *elf, Elf_Scn *scn)
{
	struct kft_elf mini;
	Elf_Data *d = elf_rawdata(scn, NULL);

	memset(&mini, 0, sizeof(mini));
	if (!d || !d->d_buf || kft_xz_inflate(d->d_buf, d->d_size, &mini.image, &mini.image_size))
		return -1;
	mini.handle = elf_memory(mini.image, mini.image_size);
	/* with a symbol table of its own, as for a debug file */
	if (!mini.handle || parse(&mini, "MiniDebugInfo", true, NULL) || !mini.nsyms ||
	    mini.debug) {
		kft_elf_close(&mini);
		return -1;
	}
	return take_symbols(elf, &mini);
}

/* The program headers: what is loaded where, an interpreter, a build-id. */
static void read_program_headers(struct kft_elf *elf)
{
	size_t n;

	if (elf_getphdrnum(elf->handle, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf->handle, (int)i, &ph))
			continue;
		if (ph.p_type == PT_INTERP) {
			Elf_Data *d = elf_getdata_rawchunk(elf->handle, (int64_t)ph.p_offset,
							   ph.p_filesz, ELF_T_BYTE);

			elf->has_interp = true;
			if (d && d->d_size && d->d_size < sizeof(elf->interp)) {
				memcpy(elf->interp, d->d_buf, d->d_size);
				elf->interp[d->d_size] = '\0';
			}
		}
		if (ph.p_type == PT_NOTE && !elf->build_id_len)
			read_build_id(elf, elf_getdata_rawchunk(elf->handle, (int64_t)ph.p_offset,
								 ph.p_filesz, ELF_T_NHDR));
		if (ph.p_type == PT_LOAD && elf->nloads < 16) {
			elf->loads[elf->nloads].offset = ph.p_offset;
			elf->loads[elf->nloads].vaddr = ph.p_vaddr;
			elf->loads[elf->nloads].filesz = ph.p_filesz;
			elf->nloads++;
		}
	}
}

static int parse(struct kft_elf *elf, const char *path, bool symbols, struct kft_error *err)
{
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL, *debugdata = NULL, *versym = NULL;
	GElf_Ehdr eh;
	size_t names;

	if (elf_kind(elf->handle) != ELF_K_ELF || !gelf_getehdr(elf->handle, &eh))
		return kft_error_set(err, "%s: not an ELF file", path);
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return kft_error_set(err, "%s: only 64-bit little-endian ELF is supported", path);
	elf->dynamic = eh.e_type == ET_DYN;
	elf->entry = eh.e_entry;
	read_program_headers(elf);
	if (elf_getshdrstrndx(elf->handle, &names))
		return kft_error_set(err, "%s: corrupt section headers: %s", path, elf_errmsg(-1));
	while ((scn = elf_nextscn(elf->handle, scn))) {
		const char *name;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			return kft_error_set(err, "%s: corrupt section headers: %s", path,
					     elf_errmsg(-1));
		name = elf_strptr(elf->handle, names, sh.sh_name);
		if (!name)
			name = "";
		if (sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dynsym = scn;
		else if (sh.sh_type == SHT_GNU_versym)
			versym = scn;
		else if (!strcmp(name, "__patchable_function_entries")) {
			/* -fpatchable-function-entry lists each function's NOPs here */
			if ((sh.sh_flags & SHF_ALLOC) && sh.sh_size) {
				elf->patch_vaddr = sh.sh_addr;
				elf->patch_size = sh.sh_size;
				elf->instrumented = true;
			}
		} else if (sh.sh_type == SHT_PREINIT_ARRAY && sh.sh_size)
			elf->preinit = true;
		else if (sh.sh_type == SHT_NOTE && !elf->build_id_len)
			read_build_id(elf, section_data(scn, &sh));
		else if (sh.sh_type == SHT_PROGBITS && !strcmp(name, ".gnu_debuglink"))
			read_debuglink(elf, scn, &sh);
		else if (sh.sh_type == SHT_PROGBITS && !strcmp(name, ".gnu_debugdata"))
			debugdata = scn;
	}
	if (dynsym)
		scan_dynsym_imports(elf, dynsym);
	elf->has_symtab = symtab != NULL;
	if (!symtab && symbols && !use_debug_file(elf, path)) {
		elf->has_symtab = true;	/* the debug file's .symtab it is */
		return 0;
	}
	if (!symtab && symbols && debugdata && !use_minidebuginfo(elf, debugdata)) {
		elf->has_symtab = true;
		return 0;
	}
	if (symtab)
		versym = NULL;	/* (.dynsym's) */
	else
		symtab = dynsym;
	if (!symtab || !symbols)
		return 0;
	return read_symtab(elf, symtab, versym, err, path);
}

static int open_elf(struct kft_elf *elf, const char *path, bool symbols, struct kft_error *err)
{
	struct stat st;
	int fd;

	memset(elf, 0, sizeof(*elf));
	if (elf_version(EV_CURRENT) == EV_NONE)
		return kft_error_set(err, "%s: libelf: %s", path, elf_errmsg(-1));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kft_error_set(err, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		close(fd);
		return kft_error_set(err, "%s: not a regular file", path);
	}
	/* the file is mapped whole and read from the map: the descriptor
	 * goes at once */
	elf->handle = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf->handle)
		elf_cntl(elf->handle, ELF_C_FDDONE);
	close(fd);
	if (!elf->handle)
		return kft_error_set(err, "%s: cannot read: %s", path, elf_errmsg(-1));
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
	if (elf->handle)
		elf_end(elf->handle);
	if (elf->image)
		munmap(elf->image, elf->image_size);
	if (elf->debug) {
		kft_elf_close(elf->debug);
		free(elf->debug);
	}
	free(elf->syms);
	free(elf->by_name);
	for (size_t i = 0; i < elf->nowned; i++)
		free(elf->owned[i]);
	free(elf->owned);
	memset(elf, 0, sizeof(*elf));
}

int kft_elf_add_made(struct kft_elf *elf, const uint64_t *addr, const uint64_t *size, size_t n)
{
	struct kft_elf_sym *v;

	if (!n)
		return 0;
	v = realloc(elf->syms, (elf->nsyms + n) * sizeof(*v));
	if (!v)
		return -1;
	elf->syms = v;
	for (size_t i = 0; i < n; i++) {
		char *name;

		/* (malloc'd here, not by asprintf: the runtime frees with its own) */
		if (kft_grow((void **)&elf->owned, elf->nowned, &elf->owned_cap,
			     sizeof(*elf->owned), 64) || !(name = malloc(24)))
			return -1;
		snprintf(name, 24, "func_%" PRIx64, addr[i]);
		elf->owned[elf->nowned++] = name;
		memset(&v[elf->nsyms], 0, sizeof(*v));
		v[elf->nsyms].addr = addr[i];
		v[elf->nsyms].size = size[i];
		v[elf->nsyms].name = name;
		v[elf->nsyms].local = v[elf->nsyms].made = true;
		elf->nsyms++;
	}
	free(elf->by_name);
	elf->by_name = NULL;
	sort_syms(elf->syms, elf->nsyms);
	return 0;
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

	if (!kft_is_mangled(sym) || !(d = kft_demangle(sym)))
		return false;
	yes = kft_demangled_matches(d, name);
	free(d);
	return yes;
}

static int by_name_then_index(const void *a, const void *b, void *syms)
{
	const struct kft_elf_sym *v = syms;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(v[x].name, v[y].name);

	return c ? c : (x > y) - (x < y);
}

void kft_elf_index_names(struct kft_elf *elf)
{
	if (elf->by_name || !elf->nsyms || elf->nsyms > UINT32_MAX ||
	    !(elf->by_name = malloc(elf->nsyms * sizeof(*elf->by_name))))
		return;
	for (size_t i = 0; i < elf->nsyms; i++)
		elf->by_name[i] = (uint32_t)i;
	qsort_r(elf->by_name, elf->nsyms, sizeof(*elf->by_name), by_name_then_index, elf->syms);
}

/* kft_elf_find through the name index: the functions called name, in
 * address order (the index keeps it among equal names). */
static size_t find_indexed(const struct kft_elf *elf, const char *name, uint64_t *addrs,
			   size_t max)
{
	size_t lo = 0, hi = elf->nsyms, found = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(elf->syms[elf->by_name[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < elf->nsyms && !strcmp(elf->syms[elf->by_name[lo]].name, name); lo++) {
		uint64_t addr = elf->syms[elf->by_name[lo]].addr;

		if (found && addrs[found < max ? found - 1 : max - 1] == addr)
			continue;
		if (found < max)
			addrs[found] = addr;
		found++;
	}
	return found;
}

size_t kft_elf_find(const struct kft_elf *elf, const char *name, uint64_t *addrs, size_t max)
{
	bool cxx = kft_is_cxx_name(name);
	size_t found = 0;

	if (elf->by_name && !cxx)
		return find_indexed(elf, name, addrs, max);
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
	bool cxx = kft_is_cxx_name(glob);
	GElf_Shdr sh;
	Elf_Data *d;
	size_t n = 0, nsyms = symbol_table(elf->dynsym, &sh, &d);

	for (size_t i = 0; i < nsyms; i++) {
		GElf_Sym sym;
		const char *name;

		if (gelf_getsym(d, (int)i, &sym) && sym.st_shndx == SHN_UNDEF &&
		    GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
		    (name = elf_strptr(elf->handle, sh.sh_link, sym.st_name)) && *name &&
		    (!fnmatch(glob, name, 0) || (cxx && cxx_match(name, glob))))
			n++;
	}
	return n;
}

bool kft_elf_exports(const struct kft_elf *elf, uint64_t vaddr)
{
	GElf_Shdr sh;
	Elf_Data *d;
	size_t nsyms = symbol_table(elf->dynsym, &sh, &d);

	for (size_t i = 0; i < nsyms; i++) {
		GElf_Sym sym;

		if (gelf_getsym(d, (int)i, &sym) && sym.st_shndx != SHN_UNDEF &&
		    sym.st_value == vaddr && GELF_ST_BIND(sym.st_info) != STB_LOCAL)
			return true;
	}
	return false;
}

const uint8_t *kft_elf_bytes_at(const struct kft_elf *elf, uint64_t vaddr, uint64_t *avail)
{
	size_t size;
	const uint8_t *file = (const uint8_t *)elf_rawfile(elf->handle, &size);

	for (size_t i = 0; file && i < elf->nloads; i++) {
		const struct kft_elf_load *l = &elf->loads[i];

		if (vaddr >= l->vaddr && vaddr < l->vaddr + l->filesz &&
		    l->offset + l->filesz <= size) {
			*avail = l->vaddr + l->filesz - vaddr;
			return file + l->offset + (vaddr - l->vaddr);
		}
	}
	return NULL;
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
