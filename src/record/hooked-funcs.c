// SPDX-License-Identifier: GPL-2.0-only
/*
 * A funclist logs only the calls of the functions it names; the others'
 * hooks would only cost. All are needed where the config counts or
 * selects calls by what runs around them: a graph filter (calls inside
 * its functions), a depth filter (levels counted over every call), a
 * stack watch (every call's stack).
 */
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../symbols/elf-symtab.h"
#include "hooked-funcs.h"

static int add(struct kft_hooked *h, size_t *cap, uint64_t addr)
{
	if (kft_grow((void **)&h->addrs, h->n, cap, sizeof(*h->addrs), 64))
		return -1;
	h->addrs[h->n++] = addr;
	return 0;
}

/* The functions of elf ref names, into h. */
static int add_ref(const struct kft_elf *elf, const struct kft_func_ref *ref, struct kft_hooked *h,
		   size_t *cap)
{
	uint64_t one, *found;
	size_t n;

	if (!ref->name)
		return ref->addr ? add(h, cap, ref->addr) : 0;
	if (!kft_is_glob(ref->name))
		return kft_elf_find(elf, ref->name, &one, 1) ? add(h, cap, one) : 0;
	n = kft_elf_find_glob(elf, ref->name, NULL, 0);
	if (!n)
		return 0;
	found = calloc(n, sizeof(*found));
	if (!found)
		return -1;
	kft_elf_find_glob(elf, ref->name, found, n);
	for (size_t i = 0; i < n; i++)
		if (add(h, cap, found[i])) {
			free(found);
			return -1;
		}
	free(found);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int kft_hooked_functions(const struct kft_elf *elf, const struct kft_hook_needs *needs,
			 struct kft_hooked *out, struct kft_error *err)
{
	const struct kft_config *cfg = needs ? needs->cfg : NULL;
	struct kft_func_ref latency = { 0 };
	size_t cap = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->all = !cfg || !cfg->has_funclist || !cfg->nfuncs || cfg->graph.n || cfg->max_depth ||
		   cfg->watch != KFT_WATCH_NONE;
	if (out->all)
		return 0;
	latency.name = (char *)needs->latency;
	for (size_t i = 0; i < cfg->nfuncs && !ret; i++)
		ret = add_ref(elf, &cfg->funcs[i], out, &cap);
	if (!ret && (cfg->start.type == KFT_TRIGGER_ENTRY || cfg->start.type == KFT_TRIGGER_EXIT))
		ret = add_ref(elf, &cfg->start.func, out, &cap);
	if (!ret && (cfg->stop.type == KFT_TRIGGER_ENTRY || cfg->stop.type == KFT_TRIGGER_EXIT))
		ret = add_ref(elf, &cfg->stop.func, out, &cap);
	if (!ret && latency.name)
		ret = add_ref(elf, &latency, out, &cap);
	if (ret) {
		kft_hooked_free(out);
		return kft_error_set(err, "out of memory");
	}
	if (out->n)
		qsort(out->addrs, out->n, sizeof(*out->addrs), cmp_u64);
	return 0;
}

bool kft_hooked_has(const struct kft_hooked *h, uint64_t addr)
{
	/* (none, when the filter logs none of the file's functions) */
	return h->all || (h->n && bsearch(&addr, h->addrs, h->n, sizeof(*h->addrs), cmp_u64));
}

void kft_hooked_free(struct kft_hooked *h)
{
	free(h->addrs);
	memset(h, 0, sizeof(*h));
}
