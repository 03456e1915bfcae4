/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A trace's calls as a source for a tree on disk (spooltree.h), nested by
 * their recorded depths (depth-nest.h): for the trees kd-stream.c cannot
 * read thread by thread (a thread that exec'd or ran coroutines while the
 * kernel was traced too).
 */
#ifndef KFT_TRACE_TREE_H
#define KFT_TRACE_TREE_H

#include "../format/reader.h"
#include "../symbols/symbolizer.h"
#include "spooltree.h"

struct kft_trace_tree;

/* The calls come after the source's first rewind; inherited: with the
 * calls each fork child began inside. */
struct kft_trace_tree *kft_trace_tree_open(const struct kft_trace *tr, bool inherited,
					   struct kft_error *err);
struct kft_call_source kft_trace_tree_source(struct kft_trace_tree *tt);
void kft_trace_tree_close(struct kft_trace_tree *tt);

#endif
