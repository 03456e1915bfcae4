// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/addrmap.h"
#include "elf-symtab.h"
#include "symbolizer.h"
#include "symmap.h"

/* Addresses in the upper half are the kernel's (x86-64, arm64). */
#define KERNEL_HALF 0xffff800000000000ULL

struct mapping {
	uint64_t start, end, offset;
	size_t file;		/* index in files[] */
};

struct session {
	uint32_t id;
	bool loaded;
	struct mapping *maps;
	size_t nmaps;
};

struct elf_file {
	char *path;
	bool ok;
	struct kft_elf elf;
};

struct kft_symbolizer {
	char *dir;
	struct kft_addrmap seen;	/* (session, addr) -> index in answers */
	struct kft_symbol *answers;
	bool *found;
	size_t nanswers, cap;
	struct session *sessions;
	size_t nsessions;
	struct elf_file *files;
	size_t nfiles;
	struct kft_symmap kallsyms;	/* the trace's kernel symbols, if any */
	bool kallsyms_tried;
};

struct kft_symbolizer *kft_symbolizer_new(const char *dir, struct kft_error *err)
{
	struct kft_symbolizer *sz = calloc(1, sizeof(*sz));

	if (!sz || !(sz->dir = strdup(dir))) {
		free(sz);
		kft_error_set(err, "out of memory");
		return NULL;
	}
	return sz;
}

void kft_symbolizer_free(struct kft_symbolizer *sz)
{
	if (!sz)
		return;
	for (size_t i = 0; i < sz->nsessions; i++)
		free(sz->sessions[i].maps);
	for (size_t i = 0; i < sz->nfiles; i++) {
		if (sz->files[i].ok)
			kft_elf_close(&sz->files[i].elf);
		free(sz->files[i].path);
	}
	free(sz->sessions);
	free(sz->files);
	kft_symmap_free(&sz->kallsyms);
	kft_addrmap_free(&sz->seen);
	free(sz->answers);
	free(sz->found);
	free(sz->dir);
	free(sz);
}

static size_t file_index(struct kft_symbolizer *sz, const char *path)
{
	struct elf_file *bigger;

	for (size_t i = 0; i < sz->nfiles; i++)
		if (!strcmp(sz->files[i].path, path))
			return i;
	bigger = realloc(sz->files, (sz->nfiles + 1) * sizeof(*bigger));
	if (!bigger)
		return SIZE_MAX;
	sz->files = bigger;
	memset(&sz->files[sz->nfiles], 0, sizeof(*bigger));
	sz->files[sz->nfiles].path = strdup(path);
	if (!sz->files[sz->nfiles].path)
		return SIZE_MAX;
	sz->files[sz->nfiles].ok = !kft_elf_open(&sz->files[sz->nfiles].elf, path, NULL);
	return sz->nfiles++;
}

/* Parse maps-<id>, snapshots of "start-end perms offset dev inode path". */
static void load_session(struct kft_symbolizer *sz, struct session *s)
{
	char path[4096], line[4352];
	size_t cap = 0;
	FILE *f;

	s->loaded = true;
	snprintf(path, sizeof(path), "%s/maps-%u", sz->dir, s->id);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		uint64_t start, end, offset;
		char perms[8], file[4096];
		size_t idx;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %4095s", &start,
			   &end, perms, &offset, file) != 5 || file[0] != '/' || start >= end)
			continue;
		idx = file_index(sz, file);
		if (idx == SIZE_MAX)
			break;
		if (s->nmaps == cap) {
			struct mapping *bigger = realloc(s->maps, (cap = cap ? 2 * cap : 32) *
							 sizeof(*bigger));

			if (!bigger)
				break;
			s->maps = bigger;
		}
		s->maps[s->nmaps++] = (struct mapping){ start, end, offset, idx };
	}
	fclose(f);
}

static struct session *get_session(struct kft_symbolizer *sz, uint32_t id)
{
	struct session *bigger;

	for (size_t i = 0; i < sz->nsessions; i++)
		if (sz->sessions[i].id == id)
			return &sz->sessions[i];
	bigger = realloc(sz->sessions, (sz->nsessions + 1) * sizeof(*bigger));
	if (!bigger)
		return NULL;
	sz->sessions = bigger;
	memset(&bigger[sz->nsessions], 0, sizeof(*bigger));
	bigger[sz->nsessions].id = id;
	load_session(sz, &bigger[sz->nsessions]);
	return &sz->sessions[sz->nsessions++];
}

static bool lookup(struct kft_symbolizer *sz, uint32_t session, uint64_t addr,
		   struct kft_symbol *sym);

/* Each address is looked up once; the answer is kept. */
bool kft_symbolize(struct kft_symbolizer *sz, uint32_t session, uint64_t addr,
		   struct kft_symbol *sym)
{
	uint32_t *slot = kft_addrmap_slot(&sz->seen, session, addr);
	bool found;

	if (slot && *slot != KFT_ADDRMAP_NONE) {
		*sym = sz->answers[*slot];
		return sz->found[*slot];
	}
	found = lookup(sz, session, addr, sym);
	if (!slot)
		return found;
	if (sz->nanswers == sz->cap) {
		size_t cap = sz->cap ? 2 * sz->cap : 256;
		struct kft_symbol *a = realloc(sz->answers, cap * sizeof(*a));
		bool *f;

		if (!a)
			return found;
		sz->answers = a;
		f = realloc(sz->found, cap * sizeof(*f));
		if (!f)
			return found;
		sz->found = f;
		sz->cap = cap;
	}
	sz->answers[sz->nanswers] = *sym;
	sz->found[sz->nanswers] = found;
	*kft_addrmap_slot(&sz->seen, session, addr) = (uint32_t)sz->nanswers++;
	return found;
}

/* A kernel address, through the kallsyms saved with the trace. */
static bool lookup_kernel(struct kft_symbolizer *sz, uint64_t addr, struct kft_symbol *sym)
{
	const struct kft_mapsym *ks;

	if (!sz->kallsyms_tried) {
		char path[4096];

		sz->kallsyms_tried = true;
		snprintf(path, sizeof(path), "%s/kallsyms", sz->dir);
		if (access(path, R_OK) || kft_symmap_load(&sz->kallsyms, path, NULL))
			kft_symmap_free(&sz->kallsyms);
	}
	ks = sz->kallsyms.syms ? kft_symmap_lookup(&sz->kallsyms, addr) : NULL;
	if (!ks)
		return false;
	sym->name = ks->name;
	sym->offset = addr - ks->addr;
	sym->sym_addr = ks->addr;
	sym->module = ks->module ? ks->module : "[kernel]";
	return true;
}

static bool lookup(struct kft_symbolizer *sz, uint32_t session, uint64_t addr,
		   struct kft_symbol *sym)
{
	struct session *s;

	memset(sym, 0, sizeof(*sym));
	if (addr >= KERNEL_HALF)
		return lookup_kernel(sz, addr, sym);
	s = get_session(sz, session);
	if (!s)
		return false;
	/* the newest snapshot first: a range may have been reused */
	for (size_t i = s->nmaps; i-- > 0;) {
		const struct mapping *m = &s->maps[i];
		struct elf_file *f;
		const struct kft_elf_sym *es;
		uint64_t vaddr;

		if (addr < m->start || addr >= m->end)
			continue;
		f = &sz->files[m->file];
		sym->module = f->path;
		sym->offset = addr - m->start + m->offset;	/* file offset, until a symbol is found */
		if (!f->ok || !kft_elf_offset_to_vaddr(&f->elf, addr - m->start + m->offset, &vaddr))
			return false;
		es = kft_elf_lookup(&f->elf, vaddr);
		if (!es)
			return false;
		sym->name = es->name;
		sym->offset = vaddr - es->addr;
		sym->sym_addr = es->addr;
		sym->source = es->file;
		return true;
	}
	return false;
}
