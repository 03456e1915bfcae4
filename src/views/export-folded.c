// SPDX-License-Identifier: GPL-2.0-only
/* Folded stacks for flame graph tools: each distinct call stack once,
 * "main;a;b N", with the time spent in it (stack-tree.h). */
#include <inttypes.h>
#include <stdlib.h>

#include "../common/grow.h"
#include "stack-tree.h"

/* Node n's stack, outermost first, then its time. */
static int put_stack(const struct stack_tree *st, FILE *out, uint32_t n, uint32_t **path,
		     size_t *cap)
{
	size_t len = 0;

	for (uint32_t k = n; k; k = st->nodes[k].parent) {
		if (kft_grow((void **)path, len, cap, sizeof(**path), 64))
			return -1;
		(*path)[len++] = st->nodes[k].func;
	}
	while (len--)
		fprintf(out, "%s%s", st->x.names.funcs[(*path)[len]].name, len ? ";" : "");
	fprintf(out, " %" PRIu64 "\n", st->nodes[n].ns);
	return 0;
}

int kft_export_folded(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		      const struct kft_export_opts *o, struct kft_export_result *res,
		      struct kft_error *err)
{
	struct stack_tree st;
	uint32_t *path = NULL;
	size_t cap = 0;
	int ret = kft_stack_tree_build(&st, tr, sz, o, res, err);

	for (size_t n = 1; !ret && n < st.nnodes; n++) {
		if (!st.nodes[n].ns)
			continue;
		if (put_stack(&st, out, (uint32_t)n, &path, &cap))
			ret = kft_error_set(err, "out of memory");
		res->written++;
	}
	if (!ret && ferror(out))
		ret = kft_error_set(err, "write error");
	free(path);
	kft_stack_tree_free(&st);
	return ret;
}
