/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A trace's call stacks as a tree of (parent, function) nodes, each with
 * the time spent in it (its own, or its calls' whole time), built from
 * the call stream with only each thread's open calls held: memory grows
 * with the distinct stacks, not with the calls. Folded stacks and flame
 * graphs are drawn from it.
 */
#ifndef KFT_STACK_TREE_H
#define KFT_STACK_TREE_H

#include "../common/addrmap.h"
#include "export-common.h"

struct stack_node {
	uint32_t parent;	/* 0: a root */
	uint32_t func;
	uint64_t ns;		/* time in this stack */
	uint64_t calls;		/* calls that ended in it */
};

struct stack_thread;

struct stack_tree {
	struct export_ctx x;	/* names: x.names.funcs[func].name */
	struct stack_node *nodes;	/* nodes[0] unused */
	size_t nnodes, ncap;
	struct kft_addrmap at;		/* (parent, func) -> node */
	struct kft_addrmap thread_at;	/* (session, tid and stack) -> thread */
	struct stack_thread *threads;
	size_t nthreads, tcap;
};

/* Build it (o->self: own times). 0, or -1 with err set; kft_stack_tree_free()
 * after it either way. */
int kft_stack_tree_build(struct stack_tree *st, const struct kft_trace *tr,
			 struct kft_symbolizer *sz, const struct kft_export_opts *o,
			 struct kft_export_result *res, struct kft_error *err);
void kft_stack_tree_free(struct stack_tree *st);

#endif
