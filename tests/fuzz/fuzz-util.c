// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analysis/calltree.h"
#include "analysis/classic-rows.h"
#include "analysis/funcstats-trace.h"
#include "analysis/funcstats.h"
#include "analysis/spooltree.h"
#include "format/reader.h"
#include "fuzz.h"
#include "symbols/symbolizer.h"
#include "views/diff.h"
#include "views/export.h"
#include "views/flame.h"
#include "views/kd.h"
#include "views/latency.h"
#include "views/stats.h"
#include "views/views.h"

const char *fuzz_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];

	if (fd < 0) {
		fd = memfd_create("kft-fuzz", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	return path;
}

FILE *fuzz_sink(void)
{
	static FILE *sink;

	if (!sink && !(sink = fopen("/dev/null", "w")))
		abort();
	return sink;
}

const char *fuzz_dir(void)
{
	static char dir[64];
	DIR *d;
	struct dirent *e;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "%s/kft-fuzz-XXXXXX",
			 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
		if (!mkdtemp(dir))
			abort();
	}
	if (!(d = opendir(dir)))
		abort();
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	return dir;
}

/* Every layout of kd 1.1's tree of the trace, kept on disk, and the
 * slowest calls of its first function. */
static int classic_tree(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			const struct kft_kd_opts *o, struct kft_error *err)
{
	struct kft_kd_opts lo = *o;
	struct kft_classic_rows *cr = kft_classic_rows_open(tr, sz, err);
	struct kft_text_source src;
	struct kft_spooltree st;
	int ret;

	if (!cr)
		return -1;
	src = kft_classic_rows_source(cr);
	ret = kft_spooltree_build_text(&st, &src, true, err);
	kft_classic_rows_close(cr);
	for (int how = 0; how < 3 && !ret; how++) {
		lo.raw_order = how == 1;
		lo.interlace = how == 2;
		ret = kft_view_kd_tree_spool(out, &st, &lo, err);
	}
	if (!ret && st.t.nfuncs)
		kft_view_kd_slowest_spool(out, &st, o, st.t.funcs[0].base_name, 2, err);
	kft_spooltree_free(&st);
	return ret;
}

/* A view as text (NULL when it failed): the streamed tree in o's layout,
 * the slowest calls of slowest, or (classic) kd 1.1's trees. */
static char *tree_text(const struct kft_trace *tr, struct kft_symbolizer *sz,
		       const struct kft_kd_opts *o, const char *slowest)
{
	struct kft_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int ret;

	if (!out)
		abort();
	ret = o->classic ? classic_tree(out, tr, sz, o, &err)
	      : slowest ? kft_view_kd_slowest_stream(out, tr, sz, o, slowest, 2, &err)
	      : o->interlace ? kft_view_kd_interlaced_stream(out, tr, sz, o, &err)
	      : o->raw_order ? kft_view_kd_rows_stream(out, tr, sz, o, &err)
			     : kft_view_kd_tree_stream(out, tr, sz, o, &err);
	fclose(out);
	if (ret) {
		free(text);
		return NULL;
	}
	return text;
}

static void trees(const struct kft_trace *tr, struct kft_symbolizer *sz)
{
	struct kft_kd_opts classic = { .sort = 't', .limit = -1, .max_depth = 20,
				       .max_funclen = 40, .columns = KFT_KD_TREE_COLUMNS,
				       .classic = true };
	char first[256] = "";

	for (int how = 0; how < 3; how++) {
		struct kft_kd_opts o = { .sort = 't', .limit = -1, .max_depth = 20,
					 .max_funclen = 40, .columns = KFT_KD_TREE_COLUMNS,
					 .raw_order = how == 1, .interlace = how == 2 };
		char *stream = tree_text(tr, sz, &o, NULL);
		const char *row = stream ? strstr(stream, "\n---") : NULL;

		/* the first row's function, for its slowest calls */
		if (!how && row && (row = strchr(row + 1, '\n')))
			sscanf(row, "%*s %*s %*s %*s %255s", first);
		free(stream);
	}
	if (*first) {
		struct kft_kd_opts o = { .sort = 't', .limit = -1, .max_depth = 20,
					 .max_funclen = 40, .columns = KFT_KD_TREE_COLUMNS };

		free(tree_text(tr, sz, &o, first));
	}
	free(tree_text(tr, sz, &classic, NULL));
}

static void summaries(const struct kft_trace *tr, struct kft_symbolizer *sz)
{
	struct kft_kd_opts o = { .sort = 'P', .limit = -1, .min_time_us = -1000000000LL,
				 .max_depth = 20, .max_funclen = 40,
				 .columns = KFT_KD_SUMMARY_COLUMNS };
	struct kft_classic_rows *cr;
	struct kft_text_source src = { 0 };
	struct kft_funcstats fs;
	struct kft_calltree t;
	struct kft_error err;

	if (!kft_funcstats_from_trace(&fs, &t, tr, sz, true, &err)) {
		kft_view_kd_summary(fuzz_sink(), &t, &fs, &o, &err);
		if (t.nfuncs)
			kft_view_kd_slowest_stream(fuzz_sink(), tr, sz, &o, t.funcs[0].base_name, 2,
						   &err);
		kft_funcstats_free(&fs);
		kft_calltree_free(&t);
	}
	o.classic = true;
	o.sort = 't';
	cr = kft_classic_rows_open(tr, sz, &err);
	src = cr ? kft_classic_rows_source(cr) : src;
	if (cr && !kft_funcstats_classic_from_rows(&fs, &t, &src, &err)) {
		kft_view_kd_summary(fuzz_sink(), &t, &fs, &o, &err);
		kft_funcstats_free(&fs);
		kft_calltree_free(&t);
	}
	kft_classic_rows_close(cr);
}

/* The exports, the pictures, stats, diff and latency, each on the trace. */
static void exports(const struct kft_trace *tr, struct kft_symbolizer *sz)
{
	const char *const all[] = { "*" };
	struct kft_export_opts o = { .switches = true, .self = true };
	struct kft_export_opts some = { .only = all, .nonly = 1, .min_ns = 1000 };
	struct kft_diff_opts d = { .limit = 5, .paths = true };
	struct kft_export_result res;
	struct kft_error err;
	struct kft_stats st;
	FILE *out = fuzz_sink();

	kft_export_chrome(out, tr, sz, &o, &res, &err);
	kft_export_folded(out, tr, sz, &o, &res, &err);
	kft_export_perfetto(out, tr, sz, &o, true, &res, &err);
	kft_export_perfetto(out, tr, sz, &some, false, &res, &err);
	kft_view_flame(out, tr, sz, &o, "fuzz", &res, &err);
	kft_view_flame_chart(out, tr, sz, &some, "fuzz", &res, &err);
	kft_view_diff(out, tr, sz, tr, sz, &d, &err);
	kft_view_wakeup_latency(out, tr, sz, 10, &err);
	if (!kft_stats_compute(&st, tr, sz, &o, &err)) {
		kft_stats_print(out, &st);
		for (size_t i = 0; i < st.nfuncs && i < 3; i++) {
			kft_stats_print_gap(out, &st, &st.funcs[i], tr, 5, &err);
			kft_stats_histogram(out, &st, &st.funcs[i], i % 2, i == 2);
			kft_view_latency(out, tr, sz, st.x.names.funcs[st.funcs[i].func].base_name,
					 20, &err);
		}
	}
	kft_stats_free(&st);
}

void fuzz_read_trace(const char *dir)
{
	struct kft_log_opts raw = { .raw = true }, names = { .ns = true };
	struct kft_symbolizer *sz;
	struct kft_trace tr;
	struct kft_error err;
	FILE *out = fuzz_sink();

	if (kft_trace_open(&tr, dir, &err)) {
		if (getenv("KFT_FUZZ_SHOW"))
			fprintf(stderr, "%s\n", err.msg);
		return;
	}
	sz = kft_symbolizer_new(dir, &err);
	if (!sz && getenv("KFT_FUZZ_SHOW"))
		fprintf(stderr, "%s\n", err.msg);
	if (sz) {
		if (getenv("KFT_FUZZ_SHOW"))
			kft_view_log(stderr, &tr, sz, &names, &err);
		kft_view_status(out, &tr, sz);
		kft_view_log(out, &tr, sz, &raw, &err);
		kft_view_log(out, &tr, sz, &names, &err);
		struct kft_ftrace_opts fo;

		kft_ftrace_opts_init(&fo);
		fo.switches = true;
		kft_view_ftrace(out, &tr, sz, &fo, &err);
		fo.tracer = KFT_FTRACE_FUNCTION;
		kft_view_ftrace(out, &tr, sz, &fo, &err);
		fo.sym_offset = fo.sym_addr = true;
		fo.print_parent = false;
		kft_view_ftrace(out, &tr, sz, &fo, &err);
		fo.hex = true;
		kft_view_ftrace(out, &tr, sz, &fo, &err);
		fo.tracer = KFT_FTRACE_LATENCY;
		kft_view_ftrace(out, &tr, sz, &fo, &err);
		fo.verbose = true;
		kft_view_ftrace(out, &tr, sz, &fo, &err);
		kft_view_losses(out, &tr, "kft: ");
		kft_view_unreached(out, &tr, sz, "kft: ");
		summaries(&tr, sz);
		trees(&tr, sz);
		exports(&tr, sz);
		kft_symbolizer_free(sz);
	}
	kft_trace_close(&tr);
}
