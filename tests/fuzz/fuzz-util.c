// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analysis/calltree.h"
#include "analysis/fastsum.h"
#include "analysis/funcstats.h"
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

static char *tree_text(const struct kft_trace *tr, struct kft_symbolizer *sz,
		       const struct kft_kd_opts *o, bool in_memory)
{
	struct kft_calltree t;
	struct kft_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int ret;

	if (!out)
		abort();
	if (in_memory) {
		ret = kft_calltree_from_trace(&t, tr, sz, &err);
		if (!ret) {
			ret = kft_view_kd_tree(out, &t, o, &err);
			kft_calltree_free(&t);
		}
	} else {
		ret = o->interlace ? kft_view_kd_interlaced_stream(out, tr, sz, o, &err)
		      : o->raw_order ? kft_view_kd_rows_stream(out, tr, sz, o, &err)
				     : kft_view_kd_tree_stream(out, tr, sz, o, &err);
	}
	fclose(out);
	if (ret) {
		free(text);
		return NULL;
	}
	return text;
}

static void trees(const struct kft_trace *tr, struct kft_symbolizer *sz)
{
	for (int how = 0; how < 3; how++) {
		struct kft_kd_opts o = { .sort = 't', .limit = -1, .max_depth = 20,
					 .max_funclen = 40, .columns = KFT_KD_TREE_COLUMNS,
					 .raw_order = how == 1, .interlace = how == 2 };
		char *mem = tree_text(tr, sz, &o, true), *stream = tree_text(tr, sz, &o, false);

		/* the two ways agree wherever both can read the trace */
		if (mem && stream && strcmp(mem, stream) && getenv("KFT_FUZZ_AGREE")) {
			fprintf(stderr, "in memory:\n%s\nstreamed:\n%s\n", mem, stream);
			abort();
		}
		free(mem);
		free(stream);
	}
}

static void summaries(const struct kft_trace *tr, struct kft_symbolizer *sz)
{
	struct kft_kd_opts o = { .sort = 'P', .limit = -1, .min_time_us = -1000000000LL,
				 .max_depth = 20, .max_funclen = 40,
				 .columns = KFT_KD_SUMMARY_COLUMNS };
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
	if (!kft_funcstats_classic_from_trace(&fs, &t, tr, sz, &err)) {
		kft_view_kd_summary(fuzz_sink(), &t, &fs, &o, &err);
		kft_funcstats_free(&fs);
		kft_calltree_free(&t);
	}
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
		kft_view_ftrace(out, &tr, sz, KFT_FTRACE_GRAPH, true, &err);
		kft_view_ftrace(out, &tr, sz, KFT_FTRACE_FUNCTION, true, &err);
		kft_view_losses(out, &tr, "kft: ");
		kft_view_unreached(out, &tr, sz, "kft: ");
		summaries(&tr, sz);
		trees(&tr, sz);
		exports(&tr, sz);
		kft_symbolizer_free(sz);
	}
	kft_trace_close(&tr);
}
