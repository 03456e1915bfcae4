/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The functions of a call tree: one entry per function, told apart by
 * identity (file and symbol for traces, name for text logs), and the
 * interned caller names. Addresses met again are answered from a cache,
 * so a trace of millions of calls symbolizes each address once.
 */
#ifndef KFT_FUNCTABLE_H
#define KFT_FUNCTABLE_H

#include "../common/addrmap.h"
#include "../common/strmap.h"
#include "../format/reader.h"
#include "calltree.h"

struct kft_functable {
	struct kft_calltree *t;		/* funcs go to t->funcs, names to t->strings */
	struct kft_symbolizer *sz;
	struct kft_strmap by_key;	/* identity -> func */
	struct kft_strmap callers;	/* name -> index in t->strings */
	struct kft_addrmap funcs_at;	/* (image, addr) -> func */
	struct kft_addrmap callers_at;	/* (image, call site) -> t->strings index */
	const char **sources;		/* per func: source file or module, or NULL */
	size_t fcap, scap;
	bool finished;			/* names given: a func met later has its bare name */
};

void kft_functable_init(struct kft_functable *ft, struct kft_calltree *t,
			struct kft_symbolizer *sz);
/* The func of identity key (made with this name and source if new). */
int kft_functable_func(struct kft_functable *ft, const char *key, const char *name,
		       const char *source, uint32_t *id);
/* The func at addr in image (a process image, maybe with an epoch of its
 * map: kft_symbolizer_image). */
int kft_functable_addr(struct kft_functable *ft, uint64_t image, uint64_t addr, uint32_t *id);
/* The name of the function holding call_site; NULL when out of memory. */
const char *kft_functable_caller(struct kft_functable *ft, uint64_t image, uint64_t call_site);
/* An interned copy of name; NULL when out of memory. */
const char *kft_functable_intern(struct kft_functable *ft, const char *name);
/*
 * Meet every function the trace's calls may name (every thread's call
 * sites and open frames, in every epoch of its map; a kernel file's also
 * as calls of the program thread it joins), then finish: for views that
 * print as they read, so that names are settled before the first row.
 */
int kft_functable_name_trace(struct kft_functable *ft, const struct kft_trace *tr);
/* Give every func its display name: "name [file.c]" where two share one. */
int kft_functable_finish(struct kft_functable *ft);
void kft_functable_done(struct kft_functable *ft);

#endif
