// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "functable.h"

void kft_functable_init(struct kft_functable *ft, struct kft_calltree *t,
			struct kft_symbolizer *sz)
{
	memset(ft, 0, sizeof(*ft));
	ft->t = t;
	ft->sz = sz;
}

int kft_functable_func(struct kft_functable *ft, const char *key, const char *name,
		       const char *source, uint32_t *id)
{
	struct kft_calltree *t = ft->t;

	if (kft_strmap_get(&ft->by_key, key, id))
		return 0;
	if (t->nfuncs == ft->fcap) {
		size_t cap = ft->fcap ? 2 * ft->fcap : 256;
		struct kft_func *funcs = realloc(t->funcs, cap * sizeof(*funcs));
		const char **sources;

		if (!funcs)
			return -1;
		t->funcs = funcs;
		sources = realloc(ft->sources, cap * sizeof(*sources));
		if (!sources)
			return -1;
		ft->sources = sources;
		ft->fcap = cap;
	}
	/* after kft_functable_finish (a damaged record naming a function no
	 * call site does), the name as it comes */
	t->funcs[t->nfuncs].name = ft->finished ? strdup(name) : NULL;
	t->funcs[t->nfuncs].base_name = strdup(name);
	if (!t->funcs[t->nfuncs].base_name || (ft->finished && !t->funcs[t->nfuncs].name))
		return -1;
	ft->sources[t->nfuncs] = source;
	*id = (uint32_t)t->nfuncs++;
	return kft_strmap_put(&ft->by_key, key, *id);
}

int kft_functable_addr(struct kft_functable *ft, uint64_t image, uint64_t addr, uint32_t *id)
{
	uint32_t *slot = kft_addrmap_slot(&ft->funcs_at, image, addr);
	struct kft_symbol sym = { 0 };
	char key[4200], name[1100];
	const char *source = NULL;

	if (!slot)
		return -1;
	if (*slot != KFT_ADDRMAP_NONE) {
		*id = *slot;
		return 0;
	}
	/* identity: file and symbol, the same in a fork child or after exec */
	if (ft->sz && kft_symbolize(ft->sz, image, addr, &sym) && sym.name) {
		snprintf(key, sizeof(key), "%s@%" PRIx64, sym.module ? sym.module : "", sym.sym_addr);
		snprintf(name, sizeof(name), "%s", sym.name);
		/* C++ overloads are told apart by their parameters */
		source = sym.params ? sym.params : sym.source;
	} else if (sym.module) {
		snprintf(key, sizeof(key), "%s+%" PRIx64, sym.module, sym.offset);
		snprintf(name, sizeof(name), "%s+0x%" PRIx64,
			 strrchr(sym.module, '/') ? strrchr(sym.module, '/') + 1 : sym.module,
			 sym.offset);
	} else {
		snprintf(key, sizeof(key), "%" PRIx64 ":%" PRIx64, image, addr);
		snprintf(name, sizeof(name), "0x%016" PRIx64, addr);
	}
	if (!source && sym.module)
		source = strrchr(sym.module, '/') ? strrchr(sym.module, '/') + 1 : sym.module;
	if (kft_functable_func(ft, key, name, source, id))
		return -1;
	*kft_addrmap_slot(&ft->funcs_at, image, addr) = *id;	/* the table may have moved */
	return 0;
}

const char *kft_functable_intern(struct kft_functable *ft, const char *name)
{
	struct kft_calltree *t = ft->t;
	uint32_t i;

	if (kft_strmap_get(&ft->callers, name, &i))
		return t->strings[i];
	if (t->nstrings == ft->scap) {
		size_t cap = ft->scap ? 2 * ft->scap : 256;
		char **strings = realloc(t->strings, cap * sizeof(*strings));

		if (!strings)
			return NULL;
		t->strings = strings;
		ft->scap = cap;
	}
	t->strings[t->nstrings] = strdup(name);
	if (!t->strings[t->nstrings] || kft_strmap_put(&ft->callers, name, (uint32_t)t->nstrings))
		return NULL;
	return t->strings[t->nstrings++];
}

const char *kft_functable_caller(struct kft_functable *ft, uint64_t image, uint64_t call_site)
{
	uint32_t *slot = kft_addrmap_slot(&ft->callers_at, image, call_site);
	struct kft_symbol sym = { 0 };
	char name[1100];
	const char *s;
	uint32_t i;

	if (!slot)
		return NULL;
	if (*slot != KFT_ADDRMAP_NONE)
		return ft->t->strings[*slot];
	if (ft->sz && kft_symbolize_return(ft->sz, image, call_site, &sym) && sym.name)
		snprintf(name, sizeof(name), "%s", sym.name);
	else
		snprintf(name, sizeof(name), "0x%" PRIx64, call_site);
	s = kft_functable_intern(ft, name);
	if (s && kft_strmap_get(&ft->callers, name, &i))
		*kft_addrmap_slot(&ft->callers_at, image, call_site) = i;
	return s;
}

int kft_functable_finish(struct kft_functable *ft)
{
	struct kft_calltree *t = ft->t;
	struct kft_strmap seen = { 0 };
	int ret = -1;

	for (size_t i = 0; i < t->nfuncs; i++) {
		uint32_t k = 0;

		kft_strmap_get(&seen, t->funcs[i].base_name, &k);
		if (kft_strmap_put(&seen, t->funcs[i].base_name, k + 1))
			goto out;
	}
	for (size_t i = 0; i < t->nfuncs; i++) {
		struct kft_func *f = &t->funcs[i];
		uint32_t k = 1;
		char buf[1024];

		kft_strmap_get(&seen, f->base_name, &k);
		if (k > 1 && ft->sources[i] && ft->sources[i][0] == '(')
			snprintf(buf, sizeof(buf), "%s%s", f->base_name, ft->sources[i]);
		else if (k > 1 && ft->sources[i])
			snprintf(buf, sizeof(buf), "%s [%s]", f->base_name, ft->sources[i]);
		else
			snprintf(buf, sizeof(buf), "%s", f->base_name);
		f->name = strdup(buf);
		if (!f->name)
			goto out;
	}
	ft->finished = true;
	ret = 0;
out:
	kft_strmap_free(&seen);
	return ret;
}

void kft_functable_done(struct kft_functable *ft)
{
	kft_strmap_free(&ft->by_key);
	kft_strmap_free(&ft->callers);
	kft_addrmap_free(&ft->funcs_at);
	kft_addrmap_free(&ft->callers_at);
	free(ft->sources);
	ft->sources = NULL;
}

/* The functions th's calls may name, read as calls of process image session. */
static int name_sites(struct kft_functable *ft, const struct kft_thread_file *th,
		      uint32_t session)
{
	uint32_t epochs = kft_symbolizer_epochs(ft->sz, session);
	uint32_t id;

	/* a site's time is not known: in every epoch of the map */
	for (uint32_t e = 0; e < epochs; e++) {
		uint64_t image = KFT_IMAGE(session, e);

		for (uint64_t k = 0; k < th->nsites; k++)
			if (kft_functable_addr(ft, image, th->sites[k].func, &id))
				return -1;
		for (uint64_t k = 0; k < th->nframes; k++)
			if ((th->frames[k].flags & KFT_FRAME_LOGGED) &&
			    kft_functable_addr(ft, image, th->frames[k].func, &id))
				return -1;
	}
	return 0;
}

int kft_functable_name_trace(struct kft_functable *ft, const struct kft_trace *tr)
{
	for (size_t i = 0; i < tr->nthreads; i++) {
		const struct kft_thread_file *th = &tr->threads[i];

		if (name_sites(ft, th, th->hdr.session))
			return -1;
		if (!kft_thread_is_kernel(th))
			continue;
		/* kernel calls made by a program thread belong to its image */
		for (size_t j = 0; j < tr->nthreads; j++)
			if (tr->threads[j].hdr.tid == th->hdr.tid &&
			    !kft_thread_is_kernel(&tr->threads[j]) &&
			    name_sites(ft, th, tr->threads[j].hdr.session))
				return -1;
	}
	return kft_functable_finish(ft);
}
