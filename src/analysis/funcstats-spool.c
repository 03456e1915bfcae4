// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-function totals of a tree on disk (a text log's, spooltree.h): one
 * pass in depth-first order feeds the summary's builder (funcstats.c);
 * the tree gives each call's depth and Local, and its row orders the
 * children.
 */
#include <stdlib.h>

#include "../common/grow.h"
#include "funcstats.h"
#include "spooltree.h"

struct open_func {
	uint32_t func;
	bool finished;
};

static int spool_pass(struct kft_funcstats_build *b, struct kft_spooltree *st,
		      uint64_t *active, struct kft_error *err)
{
	struct open_func *open = NULL;
	size_t nopen = 0, cap = 0;
	int ret = 0;

	for (uint64_t p = 0; p < st->ncalls; p++) {
		struct kft_node n;
		uint32_t row;

		if (kft_spooltree_get(st, p, &n, NULL, &row, err)) {
			ret = -1;
			break;
		}
		while (nopen > n.depth) {
			nopen--;
			active[open[nopen].func] -= open[nopen].finished;
		}
		if ((nopen && kft_funcstats_child(b, open[nopen - 1].func, n.func, n.dur_ns,
						  &(struct kft_call_place){ .pre = row })) ||
		    kft_funcstats_call(b, n.func, n.dur_ns, n.local_ns, 0, !active[n.func]) ||
		    kft_grow((void **)&open, nopen, &cap, sizeof(*open), 64)) {
			ret = kft_error_set(err, "out of memory");
			break;
		}
		open[nopen++] = (struct open_func){ n.func, n.dur_ns >= 0 };
		active[n.func] += n.dur_ns >= 0;
	}
	free(open);
	return ret;
}

int kft_funcstats_from_spool(struct kft_funcstats *fs, struct kft_spooltree *st,
			     struct kft_error *err)
{
	struct kft_funcstats_build b;
	uint64_t *active = calloc(st->t.nfuncs ? st->t.nfuncs : 1, sizeof(*active));

	kft_funcstats_build_start(&b, fs, true);
	if (!active || kft_funcstats_cover(&b, st->t.nfuncs)) {
		free(active);
		kft_funcstats_build_abort(&b);
		return kft_error_set(err, "out of memory");
	}
	if (spool_pass(&b, st, active, err)) {
		free(active);
		kft_funcstats_build_abort(&b);
		return -1;
	}
	free(active);
	if (kft_funcstats_build_finish(&b, err)) {
		kft_funcstats_build_abort(&b);
		return -1;
	}
	return 0;
}
