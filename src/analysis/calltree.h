/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Calls as a forest: each call knows its parent, children and depth, in
 * its own thread and context. Built from a kft trace (the call stream
 * gives each call's depth among the logged calls, so nesting is exact) or
 * from a KFT text log (nesting found from caller names and times, as kd
 * did, but never across threads, and an interrupt never joins another
 * context's call unless it names it; with no depths, a call whose caller
 * was not logged is a root).
 */
#ifndef KFT_CALLTREE_H
#define KFT_CALLTREE_H

#include "../format/switches.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/error.h"
#include "../format/reader.h"
#include "../format/text-log.h"
#include "../symbols/symbolizer.h"

#define KFT_NONE UINT32_MAX

/* A function, told apart by its address; its name is unique in the tree. */
struct kft_func {
	char *name;		/* display name, "name [file]" when two share a name */
	char *base_name;	/* the bare symbol name */
};

struct kft_node {
	int64_t entry_ns;	/* since the run started */
	int64_t dur_ns;		/* -1: unfinished */
	int64_t local_ns;	/* dur minus finished children, at least 0; -1 if unfinished */
	uint32_t func;		/* index in funcs */
	uint32_t parent, first_child, last_child, next_sibling;
	uint32_t depth;
	bool irq;		/* interrupt or signal-handler context */
	bool inherited;		/* a call a fork child began inside, its
				 * parent's: drawn, counted with the parent */
	int64_t tid;
	uint32_t coroutine;	/* the thread's coroutine stack, or 0 */
	char pid[24];		/* as shown */
	const char *caller;	/* the caller's name, without offset */
	const char *args;	/* saved arguments (text logs), or NULL */
};

struct kft_calltree {
	struct kft_func *funcs;
	size_t nfuncs;
	struct kft_node *nodes;	/* in entry order */
	size_t nnodes;
	uint32_t *roots;	/* in entry order */
	size_t nroots;
	char **strings;		/* owned caller names */
	size_t nstrings;
	/* from a trace: its context switches (a copy; present false when not
	 * recorded), and the time nodes' entries count from, since the
	 * trace's clock base */
	struct kft_switches switches;
	uint64_t base_ns;
};

/* From a kft trace directory (sz may be NULL: addresses as names);
 * inherited: with the calls each fork child began inside (a tree's, never
 * a summary's: they are its parent's). */
int kft_calltree_from_trace(struct kft_calltree *t, const struct kft_trace *tr,
			    struct kft_symbolizer *sz, bool inherited, struct kft_error *err);

/*
 * From a text log. classic: nest as kd 1.1 did (by caller name across all
 * threads; an unfinished call stays open 9999999 usec; locals clamped).
 */
int kft_calltree_from_text(struct kft_calltree *t, const struct kft_text_log *log, bool classic,
			   struct kft_error *err);

/* The rows of a tree as a text log shows them (for kd's classic arithmetic
 * on a kft trace). */
int kft_calltree_to_text(const struct kft_calltree *t, struct kft_text_log *log,
			 struct kft_error *err);

void kft_calltree_free(struct kft_calltree *t);

#endif
