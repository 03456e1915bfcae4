// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel backend's pieces that need no kernel: the journal that puts
 * tracefs back (on plain files here), and kernel calls written as thread
 * files and nested under a program's calls by the reader.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/calltree.h"
#include "analysis/funcstats-trace.h"
#include "format/call-stream.h"
#include "format/control.h"
#include "format/reader.h"
#include "format/thread-writer.h"
#include "kernel/ftrace-setup.h"
#include "kernel/journal.h"
#include "kernel/pairing.h"
#include "symbols/symbolizer.h"
#include "views/kd.h"

static char *make_dir(void)
{
	char tmpl[] = "/tmp/kft-unit-XXXXXX";
	char *dir = mkdtemp(tmpl);

	assert_non_null(dir);
	return strdup(dir);
}

/* Remove a test's directory and what it holds, and free its name. */
static void drop_dir(char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	rmdir(dir);
	free(dir);
}

static char *put(const char *dir, const char *name, const char *text)
{
	char *path = malloc(strlen(dir) + strlen(name) + 2);

	sprintf(path, "%s/%s", dir, name);
	assert_int_equal(kft_file_write(path, "", false, NULL), -1);	/* not there yet */
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void assert_file(const char *path, const char *want)
{
	struct kft_error err;
	char *got = kft_file_read(path, &err);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_journal_restores_backwards(void **state)
{
	char *dir = make_dir(), jpath[256];
	char *clock = put(dir, "trace_clock", "[local] global mono\n");
	char *size = put(dir, "buffer_size_kb", "7 (expanded: 1408)\n");
	char *list = put(dir, "set_ftrace_filter", "a\nb [mod]\n#### comment\nf:traceon:count=1\n");
	char *probes = put(dir, "kprobe_events", "");
	char *enable = put(dir, "enable", "0*\n");
	struct kft_journal j;
	struct kft_error err;
	pid_t owner = -1;

	snprintf(jpath, sizeof(jpath), "%s/journal", dir);
	assert_int_equal(kft_journal_begin(&j, jpath, 4242, &err), 0);
	assert_int_equal(kft_journal_begin(&(struct kft_journal){ 0 }, jpath, 1, &err), -1);
	assert_int_equal(kft_journal_set(&j, clock, "mono", &err), 0);
	assert_int_equal(kft_journal_set(&j, clock, "x86-tsc", &err), 0);	/* first value wins */
	assert_int_equal(kft_journal_set(&j, size, "64", &err), 0);
	assert_int_equal(kft_journal_set_list(&j, list, "z\n", &err), 0);
	assert_int_equal(kft_journal_append(&j, probes, "r:kft/x f\n", "-:kft/x\n", &err), 0);
	assert_int_equal(kft_journal_set(&j, enable, "1", &err), 0);
	kft_journal_close(&j);
	assert_file(clock, "x86-tsc");
	assert_file(list, "z\n");
	assert_int_equal(kft_journal_owner(jpath, &owner, &err), 1);
	assert_int_equal(owner, 4242);

	assert_int_equal(kft_journal_restore(jpath, &err), 0);
	assert_file(clock, "local");
	assert_file(size, "1408");
	assert_file(list, "a\nb\n");	/* triggers and comments are not filters */
	assert_file(probes, "r:kft/x f\n-:kft/x\n");
	assert_file(enable, "0");
	assert_int_equal(kft_journal_owner(jpath, &owner, &err), 0);	/* gone */
	free(clock);
	free(size);
	free(list);
	free(probes);
	free(enable);
	drop_dir(dir);
}

static void test_journal_skips_a_line_cut_short(void **state)
{
	char *dir = make_dir(), jpath[256], text[512];
	char *file = put(dir, "tracing_thresh", "0\n");
	struct kft_error err;
	FILE *f;

	/* "V <path> 35" whole, then a line a crash cut before its newline */
	snprintf(jpath, sizeof(jpath), "%s/journal", dir);
	f = fopen(jpath, "w");
	assert_non_null(f);
	fprintf(f, "kft-journal 0\nV ");
	for (const char *p = file; *p; p++)
		fprintf(f, "%02x", (unsigned char)*p);
	fprintf(f, " 3335\nV ");
	for (const char *p = file; *p; p++)
		fprintf(f, "%02x", (unsigned char)*p);
	fprintf(f, " 39");
	fclose(f);
	assert_int_equal(kft_journal_restore(jpath, &err), 0);
	snprintf(text, sizeof(text), "35");
	assert_file(file, text);
	free(file);
	drop_dir(dir);
}

/* The call stream of tr (trees: as views that draw trees get it), at most
 * max calls, into calls. */
static size_t read_stream(const struct kft_trace *tr, bool trees, struct kft_call *calls,
			  size_t max)
{
	struct kft_error err;
	struct kft_calls *cs = trees ? kft_calls_open_trees(tr, NULL, 0, &err)
				     : kft_calls_open(tr, NULL, 0, &err);
	size_t n = 0;

	if (!cs)
		fail_msg("%s", err.msg);
	while (n < max && kft_calls_next(cs, &calls[n]))
		n++;
	kft_calls_close(cs);
	return n;
}

static size_t read_calls(const struct kft_trace *tr, struct kft_call *calls, size_t max)
{
	return read_stream(tr, false, calls, max);
}

static void put_control(const char *dir)
{
	struct kft_control ctl;
	char path[256];
	FILE *f;

	kft_control_init(&ctl, 0, KFT_MODE_TIMED, true);
	snprintf(path, sizeof(path), "%s/control", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite(&ctl, sizeof(ctl), 1, f);
	fclose(f);
	free(put(dir, "config", "begin\nend\n"));
}

/* A trace in dir of these thread files (and a control file and config),
 * opened into *tr. */
static void open_written(const char *dir, const struct kft_thread_out *files, size_t n,
			 struct kft_trace *tr)
{
	struct kft_error err;

	put_control(dir);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(kft_thread_write(dir, &files[i], &err), 0);
	if (kft_trace_open(tr, dir, &err))
		fail_msg("%s", err.msg);
}

static struct kft_rec_data rec(uint64_t entry, uint64_t dur, uint64_t func, uint32_t depth,
			       uint32_t flags)
{
	return (struct kft_rec_data){ .entry_ns = entry, .func = func, .dur = kft_dur_encode(dur),
				      .depth = depth, .flags = flags };
}

/* main { f { openat { do_open } } }, then a kernel call after main */
static void test_kernel_calls_nest_under_the_program(void **state)
{
	char *dir = make_dir();
	const struct kft_rec_data user[] = {
		rec(100, 500, 0x1002, 1, 0),	/* f */
		rec(0, 1000, 0x1001, 0, 0),	/* main */
	};
	const struct kft_rec_data kernel[] = {
		rec(210, 50, 0xffffffff81000020ULL, 1, KFT_REC_KERNEL),	/* do_open */
		rec(200, 100, 0xffffffff81000010ULL, 0, KFT_REC_KERNEL),	/* openat */
		rec(1500, 10, 0xffffffff81000030ULL, 0, KFT_REC_KERNEL),	/* exit_group */
	};
	const struct kft_thread_out files[] = {
		{ .session = 1, .pid = 100, .tid = 100, .recs = user, .nrecs = 2 },
		{ .session = 2, .pid = 100, .tid = 100, .recs = kernel, .nrecs = 3 },
	};
	static const uint32_t want_depth[] = { 0, 1, 2, 3, 0 };
	static const uint64_t want_func[] = { 0x1001, 0x1002, 0xffffffff81000010ULL,
					      0xffffffff81000020ULL, 0xffffffff81000030ULL };
	struct kft_trace tr;
	struct kft_call calls[8];
	size_t n;

	open_written(dir, files, 2, &tr);
	n = read_calls(&tr, calls, 8);
	assert_int_equal(n, 5);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(calls[i].func, want_func[i]);
		assert_int_equal(calls[i].depth, want_depth[i]);
		/* one call tree per thread: the kernel's calls join the program's */
		assert_int_equal(calls[i].session, 1);
	}
	assert_true(calls[2].flags & KFT_REC_KERNEL);
	kft_trace_close(&tr);
	drop_dir(dir);
}

/*
 * (Not the kernel's, but read as those are.) A fork child's log begins
 * with its inherited rows: the views that draw trees get them first, the
 * child's calls under them (after returns through one of them, beside
 * it), and the rest do not see them at all.
 */
static void test_fork_child_under_inherited_calls(void **state)
{
	char *dir = make_dir();
	const struct kft_rec_data child[] = {
		{ .entry_ns = 0, .func = 0x1001, .dur = KFT_DUR_INHERITED, .depth = 0 },	/* main */
		{ .entry_ns = 10, .func = 0x1002, .dur = KFT_DUR_INHERITED, .depth = 1 },	/* spawn */
		rec(120, 5, 0x1003, 2, 0),	/* leaf, inside spawn */
		rec(150, 5, 0x1004, 1, 0),	/* after, once spawn returned */
	};
	struct kft_thread_out c = { .session = 2, .pid = 200, .tid = 200, .recs = child,
				    .nrecs = 4, .parent_session = 1, .forked_ns = 100 };
	static const uint64_t want_func[] = { 0x1001, 0x1002, 0x1003, 0x1004 };
	static const uint32_t want_depth[] = { 0, 1, 2, 1 };
	struct kft_trace tr;
	struct kft_call calls[8];
	size_t n;

	(void)state;
	open_written(dir, &c, 1, &tr);
	assert_int_equal(tr.threads[0].nrecs, 2);
	assert_int_equal(tr.threads[0].ninherited, 2);
	n = read_stream(&tr, true, calls, 8);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(calls[i].func, want_func[i]);
		assert_int_equal(calls[i].depth, want_depth[i]);
		assert_int_equal(!!(calls[i].flags & KFT_CALL_INHERITED), i < 2);
	}
	assert_int_equal(calls[0].entry_ns, 100);	/* shown at the fork */
	assert_int_equal(calls[1].dur_ns, -1);
	/* the other views: the child's own calls only, from depth 0 */
	n = read_calls(&tr, calls, 8);
	assert_int_equal(n, 2);
	assert_int_equal(calls[0].func, 0x1003);
	assert_int_equal(calls[0].depth, 0);
	assert_int_equal(calls[1].func, 0x1004);
	kft_trace_close(&tr);
	drop_dir(dir);
}

/* An image that exec replaced left main open: the new image's calls go
 * under it, its own depths counting from there. */
static void test_exec_image_under_the_calls_it_replaced(void **state)
{
	char *dir = make_dir();
	const struct kft_rec_data before[] = { rec(10, 5, 0x1002, 1, 0) };	/* init */
	const struct kft_frame open[] = { { .func = 0x1001, .entry_ns = 0,
					    .flags = KFT_FRAME_LOGGED } };	/* main */
	const struct kft_rec_data after[] = {
		rec(210, 5, 0x2002, 1, 0),	/* work */
		rec(200, 50, 0x2001, 0, 0),	/* the new main */
	};
	const struct kft_thread_out files[] = {
		{ .session = 1, .pid = 300, .tid = 300, .recs = before, .nrecs = 1, .frames = open,
		  .nframes = 1 },
		{ .session = 2, .pid = 300, .tid = 300, .recs = after, .nrecs = 2 },
	};
	static const uint64_t want_func[] = { 0x1001, 0x1002, 0x1001, 0x2001, 0x2002 };
	static const uint32_t want_depth[] = { 0, 1, 0, 1, 2 };
	static const uint32_t want_map[] = { 1, 1, 1, 2, 2 };
	struct kft_trace tr;
	struct kft_call calls[8];
	size_t n;

	(void)state;
	open_written(dir, files, 2, &tr);
	n = read_stream(&tr, true, calls, 8);
	assert_int_equal(n, 5);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(calls[i].func, want_func[i]);
		assert_int_equal(calls[i].depth, want_depth[i]);
		/* named through the image before, which mapped main */
		assert_int_equal(calls[i].map_session, want_map[i]);
		assert_int_equal(!!(calls[i].flags & KFT_CALL_INHERITED), i == 2);
	}
	assert_int_equal(calls[2].session, 2);
	assert_int_equal(calls[2].entry_ns, 200);	/* shown as the image begins */
	kft_trace_close(&tr);
	drop_dir(dir);
}

/* A kernel-only trace keeps its own depths, and open calls read as -1. */
static void test_kernel_only_trace_reads_back(void **state)
{
	char *dir = make_dir();
	const struct kft_rec_data kernel[] = { rec(20, 5, 0xffffffff81000020ULL, 1, KFT_REC_KERNEL) };
	const struct kft_frame open[] = {
		{ .func = 0xffffffff81000010ULL, .entry_ns = 10,
		  .flags = KFT_FRAME_LOGGED | KFT_FRAME_KERNEL },
	};
	struct kft_thread_out k = { .session = 1, .pid = 7, .tid = 7, .comm = "cat",
				    .recs = kernel, .nrecs = 1, .frames = open, .nframes = 1 };
	struct kft_trace tr;
	struct kft_call calls[8];
	size_t n;

	open_written(dir, &k, 1, &tr);
	assert_string_equal(tr.threads[0].hdr.comm, "cat");
	n = read_calls(&tr, calls, 8);
	assert_int_equal(n, 2);
	assert_int_equal(calls[0].dur_ns, -1);
	assert_int_equal(calls[0].depth, 0);
	assert_true(calls[0].flags & KFT_REC_KERNEL);
	assert_int_equal(calls[1].depth, 1);
	assert_int_equal(calls[1].dur_ns, 5);
	kft_trace_close(&tr);
	drop_dir(dir);
}

/* What a kd tree view prints. */
static char *kd_view(const struct kft_trace *tr, struct kft_symbolizer *sz,
		     const struct kft_kd_opts *o, const char *slowest)
{
	struct kft_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int ret;

	assert_non_null(out);
	ret = slowest ? kft_view_kd_slowest_stream(out, tr, sz, o, slowest, 2, &err)
	      : o->raw_order ? kft_view_kd_rows_stream(out, tr, sz, o, &err)
	      : o->interlace ? kft_view_kd_interlaced_stream(out, tr, sz, o, &err)
			     : kft_view_kd_tree_stream(out, tr, sz, o, &err);
	if (ret)
		fail_msg("%s", err.msg);
	fclose(out);
	return text;
}

#define K(a) (0xffffffff81000000ULL + (a))

/* One kd view of a trace and what it must print: kd -c -l (how 0), with
 * -r (1), with -i (2), or the two slowest calls of a function. */
struct kd_want {
	int how;
	const char *slowest;
	const char *text;
};

/* Print text as a C string, for writing a test's expectations. */
static void show_as_c(const char *text)
{
	fputs("\t\t\"", stdout);
	for (const char *p = text; *p; p++) {
		if (*p == '\n')
			fputs(p[1] ? "\\n\"\n\t\t\"" : "\\n", stdout);
		else
			putchar(*p);
	}
	fputs("\" },\n", stdout);
}

/* The trace of files (written into dir, then removed) as each view of
 * want shows it. */
static void assert_kd_views(char *dir, const struct kft_thread_out *files, size_t n,
			    const struct kd_want *want, size_t nwant)
{
	struct kft_trace tr;
	struct kft_symbolizer *sz;
	struct kft_error err;

	open_written(dir, files, n, &tr);
	sz = kft_symbolizer_new(dir, &err);
	if (!sz)
		fail_msg("%s", err.msg);
	for (size_t i = 0; i < nwant; i++) {
		struct kft_kd_opts o = { .sort = 't', .limit = -1, .max_depth = 20,
					 .max_funclen = 40, .raw_order = want[i].how == 1,
					 .interlace = want[i].how == 2,
					 .columns = KFT_KD_TREE_COLUMNS };
		char *got = kd_view(&tr, sz, &o, want[i].slowest);

		if (getenv("KFT_SHOW_TREES"))
			show_as_c(got);
		assert_string_equal(got, want[i].text);
		free(got);
	}
	kft_symbolizer_free(sz);
	kft_trace_close(&tr);
	drop_dir(dir);
}

/*
 * Two threads traced in the program and the kernel, one in the kernel
 * only: each kernel call in the tree of the program call that made it,
 * its time no part of that call's Local (these trees are what kd's tree
 * kept on disk printed, which the streams replaced).
 *   100: main { f { openat { do_open } g read } h { g read } write }, and
 *        kernel calls before and after main
 *   101: t1 { t2 { kread } } and t3 open at the end, with a kernel call
 *   102: the kernel only
 */
static void test_kernel_calls_in_the_program_trees(void **state)
{
	char *dir = make_dir();
	const struct kft_rec_data user[] = {
		rec(1500, 300, 0x1003, 2, 0),		/* g */
		rec(1100, 4900, 0x1002, 1, 0),		/* f */
		rec(8000, 100, 0x1003, 2, 0),		/* g */
		rec(7000, 8000, 0x1004, 1, 0),		/* h */
		rec(1000, 19000, 0x1001, 0, 0),		/* main */
	};
	const struct kft_rec_data kernel[] = {
		rec(200, 100, K(0x10), 0, KFT_REC_KERNEL),	/* before main */
		rec(1210, 50, K(0x20), 1, KFT_REC_KERNEL),	/* do_open */
		rec(1200, 200, K(0x30), 0, KFT_REC_KERNEL),	/* openat */
		rec(1900, 3300, K(0x40), 0, KFT_REC_KERNEL),	/* read */
		rec(8200, 5500, K(0x40), 0, KFT_REC_KERNEL),	/* read */
		rec(16000, 1000, K(0x50), 0, KFT_REC_KERNEL),	/* write */
		rec(25000, 10, K(0x60), 0, KFT_REC_KERNEL),	/* after main */
	};
	const struct kft_rec_data user2[] = {
		rec(3100, 200, 0x1012, 1, 0),		/* t2 */
		rec(3000, 1000, 0x1011, 0, 0),		/* t1 */
	};
	const struct kft_frame open2[] = {
		{ .func = 0x1013, .entry_ns = 9000, .flags = KFT_FRAME_LOGGED },
	};
	const struct kft_rec_data kernel2[] = {
		rec(3200, 50, K(0x40), 0, KFT_REC_KERNEL),	/* under t2 */
		rec(9500, 700, K(0x50), 0, KFT_REC_KERNEL),	/* under t3 */
	};
	const struct kft_rec_data kernel3[] = {
		rec(5000, 100, K(0x70), 0, KFT_REC_KERNEL),
	};
	const struct kft_thread_out files[] = {
		{ .session = 1, .pid = 100, .tid = 100, .recs = user, .nrecs = 5 },
		{ .session = 2, .pid = 100, .tid = 100, .recs = kernel, .nrecs = 7 },
		{ .session = 1, .pid = 100, .tid = 101, .recs = user2, .nrecs = 2,
		  .frames = open2, .nframes = 1 },
		{ .session = 2, .pid = 100, .tid = 101, .recs = kernel2, .nrecs = 2 },
		{ .session = 2, .pid = 102, .tid = 102, .recs = kernel3, .nrecs = 1 },
	};
	static const struct kd_want want[] = {
		{ 0, NULL,
		  " Entry      Duration   Local       Pid    Trace\n"
		  "---------- ---------- ---------- ------- ---------------------------------\n"
		  "         0          0          0     100 0xffffffff81000010\n"
		  "         1         19          5     100 0x0000000000001001\n"
		  "         1          4          1     100 |  0x0000000000001002\n"
		  "         1          0          0     100 |  |  0xffffffff81000030\n"
		  "         1          0          0     100 |  |  |  0xffffffff81000020\n"
		  "         1          0          0     100 |  |  0x0000000000001003\n"
		  "         1          3          3     100 |  |  0xffffffff81000040\n"
		  "         7          8          2     100 |  0x0000000000001004\n"
		  "         8          0          0     100 |  |  0x0000000000001003\n"
		  "         8          5          5     100 |  |  0xffffffff81000040\n"
		  "        16          1          1     100 |  0xffffffff81000050\n"
		  "         3          1          0     101 0x0000000000001011\n"
		  "         3          0          0     101 |  0x0000000000001012\n"
		  "         3          0          0     101 |  |  0xffffffff81000040\n"
		  "         5          0          0     102 0xffffffff81000070\n"
		  "         9         -1          -     101 0x0000000000001013\n"
		  "         9          0          0     101 |  0xffffffff81000050\n"
		  "        25          0          0     100 0xffffffff81000060\n" },
		{ 1, NULL,
		  " Entry      Duration   Local       Pid    Trace\n"
		  "---------- ---------- ---------- ------- ---------------------------------\n"
		  "         0          0          0     100 0xffffffff81000010\n"
		  "         1         19          5     100 0x0000000000001001\n"
		  "         1          4          1     100 |  0x0000000000001002\n"
		  "         1          0          0     100 |  |  0xffffffff81000030\n"
		  "         1          0          0     100 |  |  |  0xffffffff81000020\n"
		  "         1          0          0     100 |  |  0x0000000000001003\n"
		  "         1          3          3     100 |  |  0xffffffff81000040\n"
		  "         3          1          0     101 0x0000000000001011\n"
		  "         3          0          0     101 |  0x0000000000001012\n"
		  "         3          0          0     101 |  |  0xffffffff81000040\n"
		  "         5          0          0     102 0xffffffff81000070\n"
		  "         7          8          2     100 |  0x0000000000001004\n"
		  "         8          0          0     100 |  |  0x0000000000001003\n"
		  "         8          5          5     100 |  |  0xffffffff81000040\n"
		  "         9         -1          -     101 0x0000000000001013\n"
		  "         9          0          0     101 |  0xffffffff81000050\n"
		  "        16          1          1     100 |  0xffffffff81000050\n"
		  "        25          0          0     100 0xffffffff81000060\n" },
		{ 2, NULL,
		  " Entry      Duration   Local       Pid    Trace\n"
		  "---------- ---------- ---------- ------- ---------------------------------\n"
		  "         0          0          0     100 0xffffffff81000010\n"
		  "         1         19          5     100 0x0000000000001001\n"
		  "         1          4          1     100 !  0x0000000000001002\n"
		  "         1          0          0     100 !  !  0xffffffff81000030\n"
		  "         1          0          0     100 !  !  !  0xffffffff81000020\n"
		  "         1          0          0     100 !  !  0x0000000000001003\n"
		  "         1          3          3     100 !  !  0xffffffff81000040\n"
		  "----------- @@@@ start --------------\n"
		  "         3          1          0     101 0x0000000000001011\n"
		  "         3          0          0     101 @  0x0000000000001012\n"
		  "         3          0          0     101 @  @  0xffffffff81000040\n"
		  "----------- @@@@ end ----------------\n"
		  "----------- [[[[ start --------------\n"
		  "         5          0          0     102 0xffffffff81000070\n"
		  "----------- [[[[ end ----------------\n"
		  "         7          8          2     100 !  0x0000000000001004\n"
		  "         8          0          0     100 !  !  0x0000000000001003\n"
		  "         8          5          5     100 !  !  0xffffffff81000040\n"
		  "----------- #### start --------------\n"
		  "         9         -1          -     101 0x0000000000001013\n"
		  "         9          0          0     101 #  0xffffffff81000050\n"
		  "----------- #### end ----------------\n"
		  "        16          1          1     100 !  0xffffffff81000050\n"
		  "        25          0          0     100 0xffffffff81000060\n" },
		{ 0, "0x0000000000001001",
		  "#1: 0x0000000000001001, 19 usec, entered at 1 usec, pid 100\n"
		  " Entry      Duration   Local       Pid    Trace\n"
		  "---------- ---------- ---------- ------- ---------------------------------\n"
		  "         1         19          5     100 0x0000000000001001\n"
		  "         1          4          1     100 |  0x0000000000001002\n"
		  "         1          0          0     100 |  |  0xffffffff81000030\n"
		  "         1          0          0     100 |  |  |  0xffffffff81000020\n"
		  "         1          0          0     100 |  |  0x0000000000001003\n"
		  "         1          3          3     100 |  |  0xffffffff81000040\n"
		  "         7          8          2     100 |  0x0000000000001004\n"
		  "         8          0          0     100 |  |  0x0000000000001003\n"
		  "         8          5          5     100 |  |  0xffffffff81000040\n"
		  "        16          1          1     100 |  0xffffffff81000050\n" },
		{ 0, "0x0000000000001004",
		  "#1: 0x0000000000001004, 8 usec, entered at 7 usec, pid 100\n"
		  " Entry      Duration   Local       Pid    Trace\n"
		  "---------- ---------- ---------- ------- ---------------------------------\n"
		  "         7          8          2     100 0x0000000000001004\n"
		  "         8          0          0     100 |  0x0000000000001003\n"
		  "         8          5          5     100 |  0xffffffff81000040\n" },
		{ 0, "0xffffffff81000040",
		  "#1: 0xffffffff81000040, 5 usec, entered at 8 usec, pid 100\n"
		  " Entry      Duration   Local       Pid    Trace\n"
		  "---------- ---------- ---------- ------- ---------------------------------\n"
		  "         8          5          5     100 0xffffffff81000040\n"
		  "\n"
		  "#2: 0xffffffff81000040, 3 usec, entered at 1 usec, pid 100\n"
		  " Entry      Duration   Local       Pid    Trace\n"
		  "---------- ---------- ---------- ------- ---------------------------------\n"
		  "         1          3          3     100 0xffffffff81000040\n" },
	};

	(void)state;
	assert_kd_views(dir, files, sizeof(files) / sizeof(files[0]), want,
			sizeof(want) / sizeof(want[0]));
}

/*
 * A thread that exec'd while the kernel was traced too: each kernel call
 * goes into the trees of the image it ran under, those before the first
 * program call stand alone (as the tree kept on disk had them).
 *   300, image 1: main { init } left open by the exec
 *   300, image 2: main { work }
 *   kernel: before main, under init, under main (the exec), under work,
 *           under the new main, after it
 */
static void test_kernel_calls_in_the_trees_of_each_image(void **state)
{
	char *dir = make_dir();
	const struct kft_rec_data before[] = { rec(1100, 200, 0x1002, 1, 0) };	/* init */
	const struct kft_frame open[] = { { .func = 0x1001, .entry_ns = 1000,
					    .flags = KFT_FRAME_LOGGED } };	/* main */
	const struct kft_rec_data after[] = {
		rec(5100, 300, 0x2002, 1, 0),	/* work */
		rec(5000, 2000, 0x2001, 0, 0),	/* the new main */
	};
	const struct kft_rec_data kernel[] = {
		rec(500, 50, K(0x10), 0, KFT_REC_KERNEL),	/* before main */
		rec(1150, 20, K(0x20), 0, KFT_REC_KERNEL),	/* under init */
		rec(3010, 10, K(0x31), 1, KFT_REC_KERNEL),	/* under the exec */
		rec(3000, 100, K(0x30), 0, KFT_REC_KERNEL),	/* the exec */
		rec(5150, 100, K(0x40), 0, KFT_REC_KERNEL),	/* under work */
		rec(6000, 30, K(0x50), 0, KFT_REC_KERNEL),	/* under the new main */
		rec(9000, 10, K(0x60), 0, KFT_REC_KERNEL),	/* after it */
	};
	const struct kft_thread_out files[] = {
		{ .session = 1, .pid = 300, .tid = 300, .recs = before, .nrecs = 1, .frames = open,
		  .nframes = 1 },
		{ .session = 2, .pid = 300, .tid = 300, .recs = after, .nrecs = 2 },
		{ .session = 3, .pid = 300, .tid = 300, .recs = kernel, .nrecs = 7 },
	};
	static const struct kd_want want[] = {
		{ 0, NULL,
		  " Entry      Duration   Local       Pid    Trace\n"
		  "---------- ---------- ---------- ------- ---------------------------------\n"
		  "         0          0          0     300 0xffffffff81000010\n"
		  "         1         -1          -     300 0x0000000000001001\n"
		  "         1          0          0     300 |  0x0000000000001002\n"
		  "         1          0          0     300 |  |  0xffffffff81000020\n"
		  "         3          0          0     300 |  0xffffffff81000030\n"
		  "         3          0          0     300 |  |  0xffffffff81000031\n"
		  "         5          -          -     300 0x0000000000001001 /* inherited */\n"
		  "         5          2          1     300 |  0x0000000000002001\n"
		  "         5          0          0     300 |  |  0x0000000000002002\n"
		  "         5          0          0     300 |  |  |  0xffffffff81000040\n"
		  "         6          0          0     300 |  |  0xffffffff81000050\n"
		  "         9          0          0     300 |  0xffffffff81000060\n" },
		{ 1, NULL,
		  " Entry      Duration   Local       Pid    Trace\n"
		  "---------- ---------- ---------- ------- ---------------------------------\n"
		  "         0          0          0     300 0xffffffff81000010\n"
		  "         1         -1          -     300 0x0000000000001001\n"
		  "         1          0          0     300 |  0x0000000000001002\n"
		  "         1          0          0     300 |  |  0xffffffff81000020\n"
		  "         3          0          0     300 |  0xffffffff81000030\n"
		  "         3          0          0     300 |  |  0xffffffff81000031\n"
		  "         5          -          -     300 0x0000000000001001 /* inherited */\n"
		  "         5          2          1     300 |  0x0000000000002001\n"
		  "         5          0          0     300 |  |  0x0000000000002002\n"
		  "         5          0          0     300 |  |  |  0xffffffff81000040\n"
		  "         6          0          0     300 |  |  0xffffffff81000050\n"
		  "         9          0          0     300 |  0xffffffff81000060\n" },
		{ 2, NULL,
		  " Entry      Duration   Local       Pid    Trace\n"
		  "---------- ---------- ---------- ------- ---------------------------------\n"
		  "         0          0          0     300 0xffffffff81000010\n"
		  "         1         -1          -     300 0x0000000000001001\n"
		  "         1          0          0     300 !  0x0000000000001002\n"
		  "         1          0          0     300 !  !  0xffffffff81000020\n"
		  "         3          0          0     300 !  0xffffffff81000030\n"
		  "         3          0          0     300 !  !  0xffffffff81000031\n"
		  "----------- @@@@ start --------------\n"
		  "         5          -          -     300 0x0000000000001001 /* inherited */\n"
		  "         5          2          1     300 @  0x0000000000002001\n"
		  "         5          0          0     300 @  @  0x0000000000002002\n"
		  "         5          0          0     300 @  @  @  0xffffffff81000040\n"
		  "         6          0          0     300 @  @  0xffffffff81000050\n"
		  "         9          0          0     300 @  0xffffffff81000060\n"
		  "----------- @@@@ end ----------------\n" },
		{ 0, "0x0000000000001002",
		  "#1: 0x0000000000001002, 0 usec, entered at 1 usec, pid 300\n"
		  " Entry      Duration   Local       Pid    Trace\n"
		  "---------- ---------- ---------- ------- ---------------------------------\n"
		  "         1          0          0     300 0x0000000000001002\n"
		  "         1          0          0     300 |  0xffffffff81000020\n" },
		{ 0, "0x0000000000002001",
		  "#1: 0x0000000000002001, 2 usec, entered at 5 usec, pid 300\n"
		  " Entry      Duration   Local       Pid    Trace\n"
		  "---------- ---------- ---------- ------- ---------------------------------\n"
		  "         5          2          1     300 0x0000000000002001\n"
		  "         5          0          0     300 |  0x0000000000002002\n"
		  "         5          0          0     300 |  |  0xffffffff81000040\n"
		  "         6          0          0     300 |  0xffffffff81000050\n" },
		{ 0, "0xffffffff81000030",
		  "#1: 0xffffffff81000030, 0 usec, entered at 3 usec, pid 300\n"
		  " Entry      Duration   Local       Pid    Trace\n"
		  "---------- ---------- ---------- ------- ---------------------------------\n"
		  "         3          0          0     300 0xffffffff81000030\n"
		  "         3          0          0     300 |  0xffffffff81000031\n" },
	};

	(void)state;
	assert_kd_views(dir, files, sizeof(files) / sizeof(files[0]), want,
			sizeof(want) / sizeof(want[0]));
}

/* Found by fuzzing: a record whose function is UINT64_MAX (the one-pass
 * summary took it for "the same function as the last" before any, and
 * indexed a table not made yet). */
/* "filter cpus" as tracing_cpumask wants it: hex in 32-CPU groups. */
static void test_cpumask_text(void **state)
{
	static const struct {
		const char *list, *mask;
	} cases[] = {
		{ "0", "1" },
		{ "0,2-3", "d" },
		{ "31", "80000000" },
		{ "32", "1,00000000" },
		{ "0,64", "1,00000000,00000001" },
		{ "1023", "80000000" ",00000000,00000000,00000000,00000000,00000000,00000000,00000000"
			  ",00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000000"
			  ",00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000000"
			  ",00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000000" },
	};
	char buf[KFT_CPUMASK_TEXT_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kft_config cfg;
		struct kft_error err;
		char text[64];

		snprintf(text, sizeof(text), "begin filter cpus %s end", cases[i].list);
		kft_config_init(&cfg);
		assert_int_equal(kft_config_parse(&cfg, text, strlen(text), "t", &err), 0);
		assert_string_equal(kft_kernel_cpumask_text(&cfg, buf, sizeof(buf)), cases[i].mask);
		kft_config_release(&cfg);
	}
}

static void test_summary_of_a_damaged_function(void **state)
{
	char *dir = make_dir();
	const struct kft_rec_data recs[] = { rec(10, 5, UINT64_MAX, 0, 0) };
	struct kft_thread_out t = { .session = 1, .pid = 9, .tid = 9, .recs = recs, .nrecs = 1 };
	struct kft_funcstats fs;
	struct kft_calltree names;
	struct kft_trace tr;
	struct kft_error err;

	open_written(dir, &t, 1, &tr);
	assert_int_equal(kft_funcstats_from_trace(&fs, &names, &tr, NULL, true, &err), 0);
	assert_int_equal(fs.nfuncs, 1);
	assert_int_equal(fs.funcs[0].count, 1);
	kft_funcstats_free(&fs);
	kft_calltree_free(&names);
	kft_trace_close(&tr);
	drop_dir(dir);
}

/* The args statement's kprobe events joined to their calls, in every
 * order a kernel gives them: before the entry and the exit (a filtered
 * function_graph), inside the call behind the probes' own traced
 * handlers, the return value after the exit; an event with no call of
 * its function beside it is dropped. F and G are functions, H a handler. */
static void test_kprobe_values_join_their_calls(void **state)
{
	enum { F = 0x1000, G = 0x2000, H = 0x3000 };
	static const struct {
		const char *name;
		struct kft_kev ev[10];
		size_t n;
		struct kft_kev_args want[3];
		size_t nwant;
	} cases[] = {
		{ "before entry and exit",
		  { { 1, F, 11, 0, 1, 0, KFT_KEV_ARGS, 0 }, { 2, F, 0, 1, 1, 0, KFT_KEV_ENTRY, 0 },
		    { 3, F, 12, 2, 1, 0, KFT_KEV_RETVAL, 0 }, { 4, F, 2, 3, 1, 0, KFT_KEV_EXIT, 0 } },
		  4, { { 2, F, 11, 12 } }, 1 },
		{ "inside, behind handlers, the return value after the exit",
		  { { 1, F, 0, 0, 1, 0, KFT_KEV_ENTRY, 0 }, { 2, H, 0, 1, 1, 1, KFT_KEV_ENTRY, 0 },
		    { 3, F + 4, 21, 2, 1, 0, KFT_KEV_ARGS, 0 }, { 4, H, 2, 3, 1, 1, KFT_KEV_EXIT, 0 },
		    { 5, F, 4, 4, 1, 0, KFT_KEV_EXIT, 0 }, { 6, H, 0, 5, 1, 0, KFT_KEV_ENTRY, 0 },
		    { 7, H, 1, 6, 1, 0, KFT_KEV_EXIT, 0 }, { 8, F, 22, 7, 1, 0, KFT_KEV_RETVAL, 0 } },
		  8, { { 1, F, 21, 22 } }, 1 },
		{ "recursion: each call its own",
		  { { 1, F, 31, 0, 1, 0, KFT_KEV_ARGS, 0 }, { 2, F, 0, 1, 1, 0, KFT_KEV_ENTRY, 0 },
		    { 3, F, 32, 2, 1, 0, KFT_KEV_ARGS, 0 }, { 4, F, 0, 3, 1, 1, KFT_KEV_ENTRY, 0 },
		    { 5, F, 33, 4, 1, 0, KFT_KEV_RETVAL, 0 }, { 6, F, 2, 5, 1, 1, KFT_KEV_EXIT, 0 },
		    { 7, F, 34, 6, 1, 0, KFT_KEV_RETVAL, 0 }, { 8, F, 7, 7, 1, 0, KFT_KEV_EXIT, 0 } },
		  8, { { 4, F, 32, 33 }, { 2, F, 31, 34 } }, 2 },
		{ "no call of its function beside it",
		  { { 1, F, 41, 0, 1, 0, KFT_KEV_ARGS, 0 }, { 2, G, 0, 1, 1, 0, KFT_KEV_ENTRY, 0 },
		    { 3, G, 1, 2, 1, 0, KFT_KEV_EXIT, 0 }, { 4, F, 42, 3, 1, 0, KFT_KEV_RETVAL, 0 },
		    { 5, F, 0, 4, 1, 0, KFT_KEV_ENTRY, 0 } },
		  5, { { 5, F, KFT_KEV_NONE, KFT_KEV_NONE } }, 0 },
		{ "a call still open keeps its arguments",
		  { { 1, F, 51, 0, 1, 0, KFT_KEV_ARGS, 0 }, { 2, F, 0, 1, 1, 0, KFT_KEV_ENTRY, 0 } },
		  2, { { 2, F, 51, KFT_KEV_NONE } }, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kft_task_out *t = calloc(1, sizeof(*t));
		struct kft_config cfg;

		print_message("%s\n", cases[i].name);
		kft_config_init(&cfg);
		assert_non_null(t);
		assert_int_equal(kft_kernel_pair(cases[i].ev, cases[i].n, &cfg, 0, t), 0);
		assert_int_equal(t->nargs, cases[i].nwant);
		for (size_t k = 0; k < cases[i].nwant; k++) {
			assert_int_equal(t->args[k].entry_ns, cases[i].want[k].entry_ns);
			assert_int_equal(t->args[k].func, cases[i].want[k].func);
			assert_int_equal(t->args[k].args, cases[i].want[k].args);
			assert_int_equal(t->args[k].ret, cases[i].want[k].ret);
		}
		kft_config_release(&cfg);
		free(t->recs);
		free(t->args);
		free(t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_journal_restores_backwards),
		cmocka_unit_test(test_journal_skips_a_line_cut_short),
		cmocka_unit_test(test_kernel_calls_nest_under_the_program),
		cmocka_unit_test(test_kernel_only_trace_reads_back),
		cmocka_unit_test(test_fork_child_under_inherited_calls),
		cmocka_unit_test(test_exec_image_under_the_calls_it_replaced),
		cmocka_unit_test(test_kernel_calls_in_the_program_trees),
		cmocka_unit_test(test_kernel_calls_in_the_trees_of_each_image),
		cmocka_unit_test(test_summary_of_a_damaged_function),
		cmocka_unit_test(test_cpumask_text),
		cmocka_unit_test(test_kprobe_values_join_their_calls),
	};

	return cmocka_run_group_tests_name("kernel", tests, NULL, NULL);
}
