// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf-symtab.h"
#include "symmap.h"

#define KFT_SYMMAP_LAST_SPAN 0x10000

static int add(struct kft_symmap *m, size_t *cap, uint64_t addr, const char *name,
	       const char *module)
{
	struct kft_mapsym *s;

	if (m->nsyms == *cap) {
		*cap = *cap ? 2 * *cap : 4096;
		s = realloc(m->syms, *cap * sizeof(*s));
		if (!s)
			return -1;
		m->syms = s;
	}
	s = &m->syms[m->nsyms];
	s->addr = addr;
	s->name = strdup(name);
	s->module = module ? strdup(module) : NULL;
	if (!s->name || (module && !s->module)) {
		free(s->name);
		free(s->module);
		return -1;
	}
	m->nsyms++;
	return 0;
}

static int cmp_addr(const void *a, const void *b)
{
	const struct kft_mapsym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x < y ? -1 : x > y;	/* qsort is not stable: keep file order */
}

static int load_elf(struct kft_symmap *m, const char *path, struct kft_error *err)
{
	struct kft_elf elf;
	size_t cap = 0;

	if (kft_elf_open(&elf, path, err))
		return -1;
	for (size_t i = 0; i < elf.nsyms; i++) {
		if (add(m, &cap, elf.syms[i].addr, elf.syms[i].name, NULL)) {
			kft_elf_close(&elf);
			return kft_error_set(err, "%s: out of memory", path);
		}
	}
	m->pie = elf.dynamic;
	kft_elf_close(&elf);
	m->addr_digits = 16;
	return 0;
}

/* "c0100208 T start_kernel" or "ffffffffc0a01000 t foo\t[mod]" */
static int load_text(struct kft_symmap *m, FILE *f, const char *path, struct kft_error *err)
{
	char *line = NULL;
	size_t lcap = 0, cap = 0;
	unsigned int lineno = 0;
	int ret = 0;

	while (getline(&line, &lcap, f) > 0) {
		char *w[5], *save = NULL, *end;
		size_t n = 0;
		uint64_t a;

		lineno++;
		for (char *t = strtok_r(line, " \t\r\n", &save); t && n < 5;
		     t = strtok_r(NULL, " \t\r\n", &save))
			w[n++] = t;
		if (!n || (n == 2 && strlen(w[0]) == 1))
			continue;	/* blank, or nm's undefined "U name" */
		a = strtoull(w[0], &end, 16);
		if (n < 3 || n > 4 || *end || strlen(w[1]) != 1 || strlen(w[0]) > 16) {
			ret = kft_error_set(err, "%s:%u: not a symbol map line (expected "
					    "'ADDRESS TYPE NAME [MODULE]')", path, lineno);
			break;
		}
		if (!m->addr_digits)
			m->addr_digits = (int)strlen(w[0]);
		if (!strchr("TtWw", w[1][0]))
			continue;	/* data, absolute values, local labels */
		if (n == 4) {	/* kallsyms: "[module]" */
			size_t len = strlen(w[3]);

			if (w[3][0] == '[' && w[3][len - 1] == ']') {
				w[3][len - 1] = '\0';
				w[3]++;
			}
		}
		if (add(m, &cap, a, w[2], n == 4 ? w[3] : NULL)) {
			ret = kft_error_set(err, "%s: out of memory", path);
			break;
		}
	}
	free(line);
	return ret;
}

int kft_symmap_load(struct kft_symmap *m, const char *path, struct kft_error *err)
{
	unsigned char magic[4] = { 0 };
	FILE *f;
	int ret;

	memset(m, 0, sizeof(*m));
	if (!(m->path = strdup(path)))
		return kft_error_set(err, "out of memory");
	f = fopen(path, "re");
	if (!f) {
		kft_symmap_free(m);
		return kft_error_set(err, "%s: %s", path, strerror(errno));
	}
	if (fread(magic, 1, 4, f) == 4 && !memcmp(magic, "\177ELF", 4)) {
		fclose(f);
		ret = load_elf(m, path, err);
	} else {
		rewind(f);
		ret = load_text(m, f, path, err);
		fclose(f);
	}
	if (!ret && !m->nsyms)
		ret = kft_error_set(err, "%s: no function symbols in it", path);
	if (ret) {
		kft_symmap_free(m);
		return -1;
	}
	qsort(m->syms, m->nsyms, sizeof(*m->syms), cmp_addr);
	return 0;
}

void kft_symmap_free(struct kft_symmap *m)
{
	for (size_t i = 0; i < m->nsyms; i++) {
		free(m->syms[i].name);
		free(m->syms[i].module);
	}
	free(m->syms);
	free(m->path);
	memset(m, 0, sizeof(*m));
}

const struct kft_mapsym *kft_symmap_lookup(const struct kft_symmap *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nsyms;

	/* a map gives no sizes: past the last symbol, trust 64 KiB of it */
	if (!m->nsyms || addr < m->syms[0].addr ||
	    (addr > m->syms[m->nsyms - 1].addr &&
	     addr - m->syms[m->nsyms - 1].addr > KFT_SYMMAP_LAST_SPAN))
		return NULL;
	while (hi - lo > 1) {	/* syms[lo].addr <= addr < syms[hi].addr */
		size_t mid = lo + (hi - lo) / 2;

		if (m->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* the first of several symbols at one address */
	while (lo && m->syms[lo - 1].addr == m->syms[lo].addr)
		lo--;
	return &m->syms[lo];
}

size_t kft_symmap_find(const struct kft_symmap *m, const char *name,
		       const struct kft_mapsym **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nsyms; i++) {
		if (strcmp(m->syms[i].name, name))
			continue;
		if (n < max)
			out[n] = &m->syms[i];
		n++;
	}
	return n;
}
