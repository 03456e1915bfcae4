// SPDX-License-Identifier: GPL-2.0-only
/* KFT text logs (kft kd FILE, kft kd -): read, nested both ways, summed
 * and printed by every kd layout, as kft kd does. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/funcstats.h"
#include "analysis/spooltree.h"
#include "format/text-log.h"
#include "fuzz.h"
#include "views/kd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct kft_kd_opts base = { .sort = 't', .limit = -1,
					 .min_time_us = -1000000000LL, .max_depth = 20,
					 .max_funclen = 40 };

/* Every layout, from the log read row by row, its tree on disk (as kft
 * kd reads a log), or NULL. */
static char *on_disk(const char *path, bool classic)
{
	struct kft_text_reader *r;
	struct kft_text_source src;
	struct kft_kd_opts o = base;
	struct kft_spooltree st;
	struct kft_funcstats fs;
	struct kft_calltree t;
	struct kft_error err;
	struct kft_node first;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	if (!(r = kft_text_reader_open(path, 0, &err)))
		return NULL;
	src = kft_text_source_of_reader(r);
	if (kft_spooltree_build_text(&st, &src, classic, &err)) {
		kft_text_reader_close(r);
		return NULL;
	}
	if (!(out = open_memstream(&text, &len)))
		abort();
	o.classic = classic;
	o.columns = KFT_KD_SUMMARY_COLUMNS;
	if (!(classic ? kft_funcstats_classic_from_rows(&fs, &t, &src, &err)
		      : kft_funcstats_from_spool(&fs, &st, &err))) {
		kft_view_kd_summary(out, classic ? &t : &st.t, &fs, &o, &err);
		kft_funcstats_free(&fs);
		if (classic)
			kft_calltree_free(&t);
	}
	o.columns = KFT_KD_TREE_COLUMNS;
	kft_view_kd_tree_spool(out, &st, &o, &err);
	o.interlace = true;
	kft_view_kd_tree_spool(out, &st, &o, &err);
	o.raw_order = true;
	kft_view_kd_tree_spool(out, &st, &o, &err);
	/* the slowest calls of the first row's function */
	if (st.ncalls && !kft_spooltree_get(&st, st.place[0], &first, NULL, NULL, &err))
		kft_view_kd_slowest_spool(out, &st, &o, st.t.funcs[first.func].base_name, 3, &err);
	kft_spooltree_free(&st);
	kft_text_reader_close(r);
	fclose(out);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct kft_text_reader *r = kft_text_reader_open(path, 0, &(struct kft_error){ 0 });
	const struct kft_text_row *row;
	int got;

	/* every row as the views read them; a log that does not read ends here */
	if (!r)
		return 0;
	while ((got = kft_text_reader_next(r, &row, &(struct kft_error){ 0 })) > 0)
		;
	kft_text_reader_close(r);
	if (got < 0)
		return 0;
	for (int classic = 0; classic < 2; classic++) {
		char *text = on_disk(path, classic);

		if (text)
			fwrite(text, 1, strlen(text), fuzz_sink());
		free(text);
	}
	return 0;
}
