// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/grow.h"
#include "../format/reader.h"
#include "saved-symbols.h"
#include "symbolizer.h"

/* ---- writing ---------------------------------------------------------- */

/* A file the trace's calls were made in, and its functions they name. */
struct used {
	char *path;
	uint64_t *addrs;	/* link-time addresses of those functions */
	size_t n, cap;
};

struct paths {
	struct used *v;
	size_t n, cap;
};

static struct used *add_path(struct paths *p, const char *path)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].path, path))
			return &p->v[i];
	if (kft_grow((void **)&p->v, p->n, &p->cap, sizeof(*p->v), 16))
		return NULL;
	memset(&p->v[p->n], 0, sizeof(p->v[p->n]));
	if (!(p->v[p->n].path = strdup(path)))
		return NULL;
	return &p->v[p->n++];
}

static int add_addr_in(struct paths *p, struct kft_symbolizer *sz, uint64_t image, uint64_t addr,
		       bool ret)
{
	struct kft_symbol sym = { 0 };
	struct used *u;

	if (!(ret ? kft_symbolize_return : kft_symbolize)(sz, image, addr, &sym) || !sym.module ||
	    sym.module[0] != '/')
		return 0;
	if (!(u = add_path(p, sym.module)))
		return -1;
	if (u->n && u->addrs[u->n - 1] == sym.sym_addr)
		return 0;
	if (kft_grow((void **)&u->addrs, u->n, &u->cap, sizeof(*u->addrs), 64))
		return -1;
	u->addrs[u->n++] = sym.sym_addr;
	return 0;
}

/* An address of the trace's (a call site: ret) in every epoch of
 * session's map: where a library closed and another took its place, it
 * named something in each. */
static int add_addr(struct paths *p, struct kft_symbolizer *sz, uint32_t session, uint64_t addr,
		    bool ret)
{
	uint32_t epochs = kft_symbolizer_epochs(sz, session);

	for (uint32_t e = 0; e < epochs; e++)
		if (add_addr_in(p, sz, KFT_IMAGE(session, e), addr, ret))
			return -1;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool wanted(const struct used *u, uint64_t addr)
{
	return bsearch(&addr, u->addrs, u->n, sizeof(*u->addrs), cmp_u64) != NULL;
}

/* The files that hold a function or a call site of the trace. */
static int used_files(const struct kft_trace *tr, struct kft_symbolizer *sz, struct paths *p)
{
	for (size_t i = 0; i < tr->nthreads; i++) {
		const struct kft_thread_file *th = &tr->threads[i];
		uint32_t session = th->hdr.session;

		for (uint64_t k = 0; k < th->nsites; k++)
			if (add_addr(p, sz, session, th->sites[k].func, false) ||
			    add_addr(p, sz, session, th->sites[k].call_site, true))
				return -1;
		for (uint64_t k = 0; k < th->nframes; k++)
			if ((th->frames[k].flags & KFT_FRAME_LOGGED) &&
			    (add_addr(p, sz, session, th->frames[k].func, false) ||
			     add_addr(p, sz, session, th->frames[k].call_site, true)))
				return -1;
	}
	for (size_t i = 0; i < p->n; i++)
		qsort(p->v[i].addrs, p->v[i].n, sizeof(*p->v[i].addrs), cmp_u64);
	return 0;
}

/* The module's functions the trace names (each with its aliases). */
static void write_module(FILE *f, const struct used *u, const struct kft_elf *elf)
{
	fprintf(f, "module %s\nbuild-id ", u->path);
	for (size_t i = 0; i < elf->build_id_len; i++)
		fprintf(f, "%02x", elf->build_id[i]);
	fprintf(f, "%s\ndynamic %d\n", elf->build_id_len ? "" : "-", elf->dynamic);
	for (size_t i = 0; i < elf->nloads; i++)
		fprintf(f, "load %" PRIx64 " %" PRIx64 " %" PRIx64 "\n", elf->loads[i].offset,
			elf->loads[i].vaddr, elf->loads[i].filesz);
	for (size_t i = 0; i < elf->nsyms; i++) {
		const struct kft_elf_sym *s = &elf->syms[i];

		if (!wanted(u, s->addr) || strpbrk(s->name, "\t\n") ||
		    (s->file && strchr(s->file, '\n')))
			continue;
		fprintf(f, "f %" PRIx64 " %" PRIx64 " %c %s%s%s\n", s->addr, s->size,
			s->local ? 'l' : 'g', s->name, s->file ? "\t" : "", s->file ? s->file : "");
	}
}

int kft_symbols_save(const char *dir, const struct kft_trace *tr, struct kft_symbolizer *sz,
		     struct kft_error *err)
{
	struct paths p = { 0 };
	char tmp[4096], path[4096];
	FILE *f;
	int ret = -1, fd;

	if (used_files(tr, sz, &p)) {
		kft_error_set(err, "out of memory");
		goto out;
	}
	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", dir, KFT_SYMBOLS_FILE);
	snprintf(path, sizeof(path), "%s/%s", dir, KFT_SYMBOLS_FILE);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		kft_error_set(err, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	fputs("kft-symbols 1\n", f);
	for (size_t i = 0; i < p.n; i++) {
		struct kft_elf elf;

		if (kft_elf_open(&elf, p.v[i].path, NULL))
			continue;	/* gone already: names stay to be found on disk */
		write_module(f, &p.v[i], &elf);
		kft_elf_close(&elf);
	}
	if (fflush(f) || ferror(f) | fclose(f) || rename(tmp, path)) {
		kft_error_set(err, "%s: %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	ret = 0;
out:
	for (size_t i = 0; i < p.n; i++) {
		free(p.v[i].path);
		free(p.v[i].addrs);
	}
	free(p.v);
	return ret;
}

/* ---- reading ---------------------------------------------------------- */

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
