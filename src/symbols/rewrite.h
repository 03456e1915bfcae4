/* SPDX-License-Identifier: GPL-2.0-only */
/* addr2sym and sym2addr, one line of text at a time. */
#ifndef KFT_REWRITE_H
#define KFT_REWRITE_H

#include <stdbool.h>
#include <stdio.h>

#include "symmap.h"

/*
 * Write line with every 0x address (either case) replaced by "name" or
 * "name+0xoff", padded so that the text after it keeps its column; an
 * address outside the map stays as it is.
 */
void kft_addr2sym_line(FILE *out, const struct kft_symmap *m, const char *line);

/* Every line of in through kft_addr2sym_line (m NULL: as it is); -1 if
 * reading in failed. */
int kft_addr2sym_stream(FILE *out, const struct kft_symmap *m, FILE *in);

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
