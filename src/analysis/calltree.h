/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What kd's analyses share: the functions of a trace or log, each told
 * apart by address and named uniquely (functable.h fills them), and one
 * call as the tree printers see it (kd-rows.h), whether the tree was
 * streamed (views/kd-stream.c) or kept on disk (spooltree.h).
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
	char **strings;		/* owned caller names */
	size_t nstrings;
	/* from a trace: its context switches (a copy; present false when not
	 * recorded), and the time nodes' entries count from, since the
	 * trace's clock base */
	struct kft_switches switches;
	uint64_t base_ns;
};

void kft_calltree_free(struct kft_calltree *t);

#endif
