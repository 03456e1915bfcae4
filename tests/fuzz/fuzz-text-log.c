// SPDX-License-Identifier: GPL-2.0-only
/* KFT text logs (kft kd FILE, kft kd -): read, nested both ways, summed
 * and printed by every kd layout. */
#include <stdbool.h>
#include <stdlib.h>

#include "analysis/calltree.h"
#include "analysis/funcstats.h"
#include "format/text-log.h"
#include "fuzz.h"
#include "views/kd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void views(const struct kft_calltree *t, bool classic)
{
	struct kft_kd_opts o = { .sort = 't', .limit = -1, .min_time_us = -1000000000LL,
				 .max_depth = 20, .max_funclen = 40, .classic = classic };
	struct kft_funcstats fs;
	struct kft_error err;
	FILE *out = fuzz_sink();

	o.columns = KFT_KD_SUMMARY_COLUMNS;
	if (!(classic ? kft_funcstats_classic(&fs, t, &err) : kft_funcstats_compute(&fs, t, &err))) {
		kft_view_kd_summary(out, t, &fs, &o, &err);
		kft_funcstats_free(&fs);
	}
	o.columns = KFT_KD_TREE_COLUMNS;
	kft_view_kd_tree(out, t, &o, &err);
	o.interlace = true;
	kft_view_kd_tree(out, t, &o, &err);
	o.raw_order = true;
	kft_view_kd_tree(out, t, &o, &err);
	if (t->nnodes)
		kft_view_kd_slowest(out, t, &o, t->funcs[t->nodes[0].func].base_name, 3, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kft_text_log log;
	struct kft_calltree t;
	struct kft_error err;

	if (kft_text_log_load(&log, fuzz_file(data, size), &err))
		return 0;
	for (int classic = 0; classic < 2; classic++) {
		if (kft_calltree_from_text(&t, &log, classic, &err))
			continue;
		views(&t, classic);
		kft_calltree_free(&t);
	}
	kft_text_log_free(&log);
	return 0;
}
