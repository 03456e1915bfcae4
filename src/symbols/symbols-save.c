// SPDX-License-Identifier: GPL-2.0-only
/* A trace's symbols file written (symbols-save.h; the format in
 * saved-symbols.h, which reads it back). */
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
#include "frame-funcs.h"
#include "symbols-save.h"

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
		/* (read already to name the trace's addresses, most often) */
		const struct kft_elf *read = kft_symbolizer_elf_read(sz, p.v[i].path);
		struct kft_elf elf;

		if (read) {
			write_module(f, &p.v[i], read);
			continue;
		}
		if (kft_elf_open(&elf, p.v[i].path, NULL))
			continue;	/* gone already: names stay to be found on disk */
		kft_elf_add_planned_functions(&elf, dir, p.v[i].path);
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
