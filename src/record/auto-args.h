/* SPDX-License-Identifier: GPL-2.0-only */
/* kft record -a: the arguments and result of every function whose types
 * are known, as args statement entries. */
#ifndef KFT_AUTO_ARGS_H
#define KFT_AUTO_ARGS_H

#include <stdbool.h>
#include <stdio.h>

#include "../common/error.h"
#include "../config/config.h"

/*
 * Add to cfg's args statement every function of the program at path
 * whose parameters its debug information gives (where its hooks see the
 * registers: -pg, -pg -mfentry, patched entries) and, with libcalls,
 * every C library function it calls that kft knows the prototype of
 * (with libcalls_all, that any library calls: every one the table has). A
 * function the statement names already (-A, -R, the config) keeps what
 * that asks. What cannot be saved, and why, goes to notes. 0, or -1 with
 * err (out of memory, a file that cannot be read).
 */
int kft_auto_args(struct kft_config *cfg, const char *path, bool libcalls, bool libcalls_all,
		  FILE *notes, struct kft_error *err);

/*
 * -A FUNC and -R FUNC with no spec (the n args entries from first in
 * cfg's statement, given as opts[i], ret[i] true for an -R): the types the debug
 * information of the program at path gives FUNC in place of the default
 * (its parameters for -A, its result for -R), as -a takes them; where it
 * gives none, notes says which spec stands. 0, or -1 with err.
 */
int kft_auto_args_bare(struct kft_config *cfg, size_t first, const char *const *opts,
		       const bool *ret, size_t n, const char *path, FILE *notes,
		       struct kft_error *err);

/*
 * The enumerators of every enum type cfg's args specs show by name
 * (/e:TYPE), from the debug information of the program at path, into
 * dir's enums file (format/enum-defs.h); a type not found there shows as
 * numbers, which notes says. 0, or -1 with err.
 */
int kft_auto_args_enums(const struct kft_config *cfg, const char *path, const char *dir,
			FILE *notes, struct kft_error *err);

#endif
