/* SPDX-License-Identifier: GPL-2.0-only */
/* addr2sym and sym2addr, one line of text at a time. */
#ifndef KFT_REWRITE_H
#define KFT_REWRITE_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "symmap.h"

#define KFT_ADDR2SYM_BASES 16

/* Addresses to names with one map: where its file was loaded, if it is a
 * PIE or a library, and what was not found. */
struct kft_addr2sym {
	const struct kft_symmap *map;	/* NULL: lines go through as they are */
	uint64_t bases[KFT_ADDR2SYM_BASES];	/* where map's file was loaded: from -b,
						 * or the text's "Load base of FILE:
						 * 0x..." lines (`kft log --raw`) */
	size_t nbases;
	uint64_t missed;		/* addresses no symbol of the map held */
};

/* The line that says where file was loaded, as `kft log --raw` writes it. */
#define KFT_LOAD_BASE_LINE "Load base of %s: 0x%016" PRIx64 "\n"

/*
 * Write line with every 0x address (either case) replaced by "name" or
 * "name+0xoff", padded so that the text after it keeps its column; an
 * address outside the map stays as it is. A PIE's or a library's
 * addresses are taken from each of a->bases until one is inside the map.
 */
void kft_addr2sym_line(FILE *out, struct kft_addr2sym *a, const char *line);

/* Every line of in through kft_addr2sym_line, and its "Load base of" lines
 * for a->map's file into a->bases; -1 if reading in failed. */
int kft_addr2sym_stream(FILE *out, struct kft_addr2sym *a, FILE *in);

struct kft_sym2addr_state {
	bool in_funclist;	/* between "funclist" and "fend" */
	unsigned int lineno;
	const char *origin;
};

/*
 * Write a config line with every function name replaced by its address
 * ("0x" and the map's digits). A name with several addresses gives all of
 * them in a funclist, else the first, with a warning on warn.
 */
void kft_sym2addr_line(FILE *out, FILE *warn, const struct kft_symmap *m,
		       struct kft_sym2addr_state *st, const char *line);

#endif
