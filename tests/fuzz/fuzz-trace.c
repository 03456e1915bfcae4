// SPDX-License-Identifier: GPL-2.0-only
/*
 * A trace directory, every file kind: the input is a list of files
 * (a name's length in one byte, the name, the data's length in four bytes
 * little-endian, the data; the last one may be cut short), written into a
 * directory that every view then reads. A trace directory that opens is
 * shown by each of them; the call trees streamed and built in memory
 * must agree.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/calltree.h"
#include "analysis/fastsum.h"
#include "analysis/funcstats.h"
#include "format/reader.h"
#include "fuzz.h"
#include "symbols/symbolizer.h"
#include "views/kd.h"
#include "views/views.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *trace_dir(void)
{
	static char dir[64];

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "%s/kft-fuzz-XXXXXX",
			 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
		if (!mkdtemp(dir))
			abort();
	}
	return dir;
}

static void empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		abort();
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
}

/* Names a trace directory may hold: no path, nothing hidden. */
static bool plain_name(const char *name)
{
	if (!name[0] || name[0] == '.')
		return false;
	for (const char *p = name; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_", *p))
			return false;
	return true;
}

static void unpack(const char *dir, const uint8_t *data, size_t size)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);

	if (dfd < 0)
		abort();
	while (size >= 1) {
		size_t nlen = data[0], len;
		char name[256];
		int fd;

		if (size < 1 + nlen + 4)
			break;
		memcpy(name, data + 1, nlen);
		name[nlen] = '\0';
		len = (size_t)data[1 + nlen] | (size_t)data[2 + nlen] << 8 |
		      (size_t)data[3 + nlen] << 16 | (size_t)data[4 + nlen] << 24;
		data += 5 + nlen;
		size -= 5 + nlen;
		if (len > size)
			len = size;
		if (plain_name(name) &&
		    (fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600)) >= 0) {
			if (write(fd, data, len) != (ssize_t)len)
				abort();
			close(fd);
		}
		data += len;
		size -= len;
	}
	close(dfd);
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
		if (mem && stream && strcmp(mem, stream) && getenv("KFT_FUZZ_AGREE"))
			abort();
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *dir = trace_dir();
	struct kft_log_opts raw = { .raw = true }, names = { .ns = true };
	struct kft_symbolizer *sz;
	struct kft_trace tr;
	struct kft_error err;
	FILE *out = fuzz_sink();

	empty(dir);
	unpack(dir, data, size);
	if (kft_trace_open(&tr, dir, &err))
		return 0;
	sz = kft_symbolizer_new(dir, &err);
	if (sz) {
		kft_view_status(out, &tr, sz);
		kft_view_log(out, &tr, sz, &raw, &err);
		kft_view_log(out, &tr, sz, &names, &err);
		kft_view_ftrace(out, &tr, sz, KFT_FTRACE_GRAPH, &err);
		kft_view_ftrace(out, &tr, sz, KFT_FTRACE_FUNCTION, &err);
		kft_view_losses(out, &tr, "kft: ");
		kft_view_unreached(out, &tr, sz, "kft: ");
		summaries(&tr, sz);
		trees(&tr, sz);
		kft_symbolizer_free(sz);
	}
	kft_trace_close(&tr);
	return 0;
}
