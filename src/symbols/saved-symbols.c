// SPDX-License-Identifier: GPL-2.0-only
/* A trace's symbols file read back (saved-symbols.h; symbols-save.c writes it). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "saved-symbols.h"

static int add_module(struct kft_saved_symbols *ss, char *path)
{
	struct kft_saved_module *bigger = realloc(ss->mods, (ss->nmods + 1) * sizeof(*bigger));

	if (!bigger)
		return -1;
	ss->mods = bigger;
	memset(&ss->mods[ss->nmods], 0, sizeof(*bigger));
	ss->mods[ss->nmods++].path = path;
	return 0;
}

static int add_sym(struct kft_elf *elf, size_t *cap, char *line)
{
	struct kft_elf_sym s = { 0 };
	char kind, *name, *src;
	int used = 0;

	if (sscanf(line, "%" SCNx64 " %" SCNx64 " %c %n", &s.addr, &s.size, &kind, &used) != 3 ||
	    !used || (kind != 'g' && kind != 'l'))
		return -1;
	name = line + used;
	if ((src = strchr(name, '\t'))) {
		*src++ = '\0';
		s.file = src;
	}
	s.name = name;
	s.local = kind == 'l';
	if (kft_grow((void **)&elf->syms, elf->nsyms, cap, sizeof(*elf->syms), 256))
		return -1;
	elf->syms[elf->nsyms++] = s;
	return 0;
}

static int hex_bytes(const char *s, unsigned char *out, size_t max, size_t *len)
{
	size_t n = strlen(s);

	*len = 0;
	if (!strcmp(s, "-"))
		return 0;
	if (n % 2 || n / 2 > max)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned int b;

		if (sscanf(s + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (unsigned char)b;
	}
	*len = n / 2;
	return 0;
}

static int parse_line(struct kft_saved_symbols *ss, char *line, size_t *cap)
{
	struct kft_elf *elf = ss->nmods ? &ss->mods[ss->nmods - 1].elf : NULL;
	int dyn;

	if (!strncmp(line, "module ", 7)) {
		*cap = 0;
		return add_module(ss, line + 7);
	}
	if (!elf)
		return -1;
	if (!strncmp(line, "build-id ", 9))
		return hex_bytes(line + 9, elf->build_id, sizeof(elf->build_id), &elf->build_id_len);
	if (sscanf(line, "dynamic %d", &dyn) == 1) {
		elf->dynamic = dyn;
		return 0;
	}
	if (!strncmp(line, "load ", 5)) {
		struct kft_elf_load *l = &elf->loads[elf->nloads];

		if (elf->nloads >= 16 || sscanf(line + 5, "%" SCNx64 " %" SCNx64 " %" SCNx64,
						&l->offset, &l->vaddr, &l->filesz) != 3)
			return -1;
		elf->nloads++;
		return 0;
	}
	if (!strncmp(line, "f ", 2))
		return add_sym(elf, cap, line + 2);
	return -1;
}

int kft_symbols_load(struct kft_saved_symbols *ss, const char *dir, struct kft_error *err)
{
	char path[4096], *line, *next;
	size_t lineno = 1, cap = 0;
	long size;
	FILE *f;

	memset(ss, 0, sizeof(*ss));
	snprintf(path, sizeof(path), "%s/%s", dir, KFT_SYMBOLS_FILE);
	if (!(f = fopen(path, "re")))
		return errno == ENOENT ? 0 : kft_error_set(err, "%s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(ss->text = malloc((size_t)size + 1)) ||
	    fread(ss->text, 1, (size_t)size, f) != (size_t)size) {
		fclose(f);
		return kft_error_set(err, "%s: cannot read", path);
	}
	fclose(f);
	ss->text[size] = '\0';
	if (strncmp(ss->text, "kft-symbols 1\n", 14))
		goto bad;
	for (line = ss->text + 14, lineno = 2; *line; line = next, lineno++) {
		next = strchr(line, '\n');
		if (!next)
			goto bad;	/* cut short */
		*next++ = '\0';
		if (parse_line(ss, line, &cap))
			goto bad;
	}
	for (size_t i = 0; i < ss->nmods; i++) {
		struct kft_elf *elf = &ss->mods[i].elf;

		for (size_t k = 1; k < elf->nsyms; k++)
			if (elf->syms[k].addr < elf->syms[k - 1].addr)
				goto bad;	/* the lookup needs them sorted */
	}
	return 0;
bad:
	kft_error_set(err, "%s: corrupt near line %zu", path, lineno);
	kft_symbols_free(ss);
	return -1;
}

void kft_symbols_free(struct kft_saved_symbols *ss)
{
	for (size_t i = 0; i < ss->nmods; i++)
		kft_elf_close(&ss->mods[i].elf);
	free(ss->mods);
	free(ss->text);
	memset(ss, 0, sizeof(*ss));
}
