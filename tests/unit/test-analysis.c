// SPDX-License-Identifier: GPL-2.0-only
/* Call trees of text logs and per-function statistics, fixed and classic
 * (kd 1.1), as kft kd computes them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/compensation.h"
#include "analysis/funcstats.h"
#include "analysis/nest.h"
#include "analysis/spooltree.h"

/* the rows the tests give, as a log's */
static struct {
	struct kft_text_row *rows;
	size_t nrows;
} tlog;
static struct kft_spooltree st;
static bool built;
static struct kft_calltree classic_names;	/* kft_funcstats_classic_from_rows's */
static const struct kft_calltree *names;	/* whose functions stat_of reads */
static struct kft_funcstats fs;
static struct kft_error err;
/* each call of the tree, by its row: depth, parent (a row) and function */
static struct {
	uint32_t depth, parent, func;
} calls[32];
static size_t nroots;

/* tlog's rows as the trees read rows */
static size_t at;

static int rows_next(void *ctx, const struct kft_text_row **row, struct kft_error *e)
{
	(void)ctx;
	(void)e;
	if (at == tlog.nrows)
		return 0;
	*row = &tlog.rows[at++];
	return 1;
}

static int rows_rewind(void *ctx, struct kft_error *e)
{
	(void)ctx;
	(void)e;
	at = 0;
	return 0;
}

static const struct kft_text_source log_rows = { .next = rows_next, .rewind = rows_rewind };

static void unload(void)
{
	if (built)
		kft_spooltree_free(&st);
	built = false;
	kft_calltree_free(&classic_names);
	for (size_t i = 0; i < tlog.nrows; i++)
		kft_text_row_free(&tlog.rows[i]);
	free(tlog.rows);
	memset(&tlog, 0, sizeof(tlog));
}

/* rows: "entry delta pid func caller" lines, nested as kft kd nests a
 * log's (on disk); each call's parent is the call before it in the
 * tree's depth-first order one level up */
static void load(const char *const *lines, size_t n, bool classic)
{
	uint32_t open[32];

	unload();
	tlog.rows = calloc(n, sizeof(*tlog.rows));
	assert_non_null(tlog.rows);
	for (size_t i = 0; i < n; i++) {
		char buf[256];

		snprintf(buf, sizeof(buf), "%s", lines[i]);
		assert_int_equal(kft_text_log_parse_row(&tlog.rows[i], buf, "t", (unsigned)i + 1, &err), 0);
		tlog.nrows++;
	}
	assert_int_equal(kft_spooltree_build_text(&st, &log_rows, classic, &err), 0);
	built = true;
	names = &st.t;
	nroots = 0;
	assert_true(st.ncalls <= 32);
	for (uint64_t p = 0; p < st.ncalls; p++) {
		struct kft_node node;
		uint32_t row;

		assert_int_equal(kft_spooltree_get(&st, p, &node, NULL, &row, &err), 0);
		calls[row].depth = node.depth;
		calls[row].func = node.func;
		calls[row].parent = node.depth ? open[node.depth - 1] : KFT_NONE;
		open[node.depth] = row;
		nroots += !node.depth;
	}
}

static uint32_t node_named(const char *name, unsigned int nth)
{
	for (size_t i = 0; i < st.ncalls; i++)
		if (!strcmp(st.t.funcs[calls[i].func].name, name) && !nth--)
			return (uint32_t)i;
	fail_msg("no node %s", name);
	return KFT_NONE;
}

static const char *parent_name(uint32_t n)
{
	uint32_t p = calls[n].parent;

	return p == KFT_NONE ? "(root)" : st.t.funcs[calls[p].func].name;
}

static const struct kft_func_stat *stat_of(const char *name)
{
	for (size_t f = 0; f < fs.nfuncs; f++)
		if (!strcmp(names->funcs[f].base_name, name) && fs.funcs[f].count)
			return &fs.funcs[f];
	fail_msg("no stats for %s", name);
	return NULL;
}

static const char *const fork_log[] = {
	"     4 20428  33 do_fork          sys_clone+0x24",
	"     7     6  33 alloc_pidmap     do_fork+0x3c",
	"    15 20100  33 copy_process     do_fork+0x84",
	"    20    -1  33 dup_mm           copy_process+0x2f0",
	"   253   151  33 timer_interrupt  __irq_svc+0x40",
	"   256     8  -1 profile_tick     timer_interrupt+0x20",
	"   266    80  -1 do_timer         timer_interrupt+0x44",
	"   400   300  45 create_dir       do_fork+0x10",
	"   410   100  45 sysfs_new_dirent create_dir+0x30",
	"  1000  5000  33 create_dir       dup_mm+0x50",
	"  1010  4000  33 sysfs_new_dirent create_dir+0x30",
};

/* Threads never adopt each other's calls; interrupts find their caller. */
static void test_nesting_per_thread(void **state)
{
	load(fork_log, 11, false);
	assert_string_equal(parent_name(node_named("alloc_pidmap", 0)), "do_fork");
	assert_string_equal(parent_name(node_named("dup_mm", 0)), "copy_process");
	assert_string_equal(parent_name(node_named("timer_interrupt", 0)), "(root)");
	assert_string_equal(parent_name(node_named("profile_tick", 0)), "timer_interrupt");
	/* pid 45's create_dir names do_fork as caller: but do_fork is pid 33's */
	assert_string_equal(parent_name(node_named("create_dir", 0)), "(root)");
	assert_string_equal(parent_name(node_named("sysfs_new_dirent", 0)), "create_dir");
	assert_int_equal(calls[node_named("sysfs_new_dirent", 0)].parent,
			 node_named("create_dir", 0));
	assert_string_equal(parent_name(node_named("create_dir", 1)), "dup_mm");
	assert_int_equal(calls[node_named("sysfs_new_dirent", 1)].depth, 4);
	assert_int_equal(nroots, 3);
}

/* An unfinished call (its exit never logged: the run stopped in it) is
 * open only until its thread shows it ended: a sibling with its function
 * and caller, or a call under an older one. Its namesake's child after
 * that is no child of it. */
static const char *const stopped_log[] = {
	"   100    -1  7 outer  worker+0x39",
	"   300    50  7 outer  worker+0x39",
	"   310    10  7 inner  outer+0x2e",
	"   900    10  7 inner  outer+0x3e",
	"  1000    -1  7 main   __libc_start_main+0x80",
	"  1010    -1  7 setup  main+0x10",
	"  1020    -1  8 setup  main+0x10",
	"  1100    10  7 run    main+0x20",
	"  1200    10  7 load   setup+0x8",
};

static void test_unfinished_call_ends(void **state)
{
	(void)state;
	load(stopped_log, 9, false);
	assert_string_equal(parent_name(node_named("outer", 1)), "(root)");
	assert_string_equal(parent_name(node_named("inner", 0)), "outer");
	assert_int_equal(calls[node_named("inner", 0)].parent, node_named("outer", 1));
	assert_string_equal(parent_name(node_named("inner", 1)), "(root)");
	/* run, main's child, began after setup: load is no child of it */
	assert_string_equal(parent_name(node_named("run", 0)), "main");
	assert_string_equal(parent_name(node_named("load", 0)), "(root)");
	/* kd 1.1 kept them open */
	load(stopped_log, 9, true);
	assert_int_equal(calls[node_named("inner", 1)].parent, node_named("outer", 0));
	assert_string_equal(parent_name(node_named("load", 0)), "setup");
}

static void test_classic_nesting(void **state)
{
	/* kd 1.1: any thread's do_fork will do */
	load(fork_log, 11, true);
	assert_string_equal(parent_name(node_named("create_dir", 0)), "do_fork");
}

static void test_stats(void **state)
{
	const struct kft_func_stat *s;

	load(fork_log, 11, false);
	assert_int_equal(kft_funcstats_from_spool(&fs, &st, &err), 0);
	s = stat_of("do_fork");
	assert_int_equal(s->count, 1);
	assert_int_equal(s->time_ns, 20428000);
	/* children: alloc_pidmap 6 + copy_process 20100 */
	assert_int_equal(s->local_ns, 322000);
	assert_int_equal(s->sub_ns, 20106000);
	s = stat_of("dup_mm");	/* unfinished: counted, never summed */
	assert_int_equal(s->count, 1);
	assert_int_equal(s->unfinished, 1);
	assert_int_equal(s->time_ns, 0);
	s = stat_of("create_dir");
	assert_int_equal(s->count, 2);
	assert_int_equal(s->time_ns, 5300000);
	assert_int_equal(s->local_ns, 200000 + 1000000);
	assert_int_equal(s->min_ns, 300000);
	assert_int_equal(s->max_ns, 5000000);
	assert_int_equal(s->p50_ns, 300000);
	assert_int_equal(names->funcs[s->max_sub].name[0], 's');
	assert_int_equal(s->max_sub_count, 2);
	s = stat_of("timer_interrupt");
	assert_int_equal(s->local_ns, 151000 - 8000 - 80000);
	kft_funcstats_free(&fs);
}

static void test_classic_stats(void **state)
{
	const struct kft_func_stat *s;

	load(fork_log, 11, true);
	assert_int_equal(kft_funcstats_classic_from_rows(&fs, &classic_names, &log_rows, &err), 0);
	names = &classic_names;
	s = stat_of("dup_mm");	/* -1 summed, and Local negative, as kd printed */
	assert_int_equal(s->time_ns, -1000);
	assert_int_equal(s->local_ns, -1000 - 5000000);
	s = stat_of("do_fork");	/* pid 45's create_dir counts as its sub-time */
	assert_int_equal(s->sub_ns, 6000 + 20100000 + 300000);
	kft_funcstats_free(&fs);
}

/* The log rounds to usec: a child may seem to start after its parent ended. */
static void test_rounding_tolerance(void **state)
{
	static const char *const rows[] = {
		"0 5 1 middle top+0x1",
		"6 0 1 leaf middle+0x2",
	};

	load(rows, 2, false);
	assert_string_equal(parent_name(node_named("leaf", 0)), "middle");
	load(rows, 2, true);
	assert_string_equal(parent_name(node_named("leaf", 0)), "(root)");
}

static int teardown(void **state)
{
	(void)state;
	unload();
	return 0;
}

/* --compensate's doubt: the calibration's spread on each of a call's
 * 2n + 1 stretches, added up; what was taken off: the calibration's loss
 * per nested call, and a stretch's for the call itself. A trace not
 * compensated, or by a kft that kept no calibration, says nothing. */
static void test_compensation(void **state)
{
	struct kft_control ctl = { .mode = KFT_MODE_COMPENSATE, .comp_gap_ps = 2000,
				   .comp_spread_ps = 500, .comp_taken_ps = 60000 };
	struct kft_compensation c = kft_compensation_of(&ctl);

	(void)state;
	assert_true(c.known);
	assert_true(kft_compensation_doubt_ns(&c, 1, 0) == 0.5);
	assert_true(kft_compensation_doubt_ns(&c, 2, 10) == 11);
	assert_true(kft_compensation_taken_ns(&c, 1, 0) == 2);
	assert_true(kft_compensation_taken_ns(&c, 2, 10) == 604);
	ctl.comp_taken_ps = 0;
	assert_false(kft_compensation_of(&ctl).known);
	ctl.comp_taken_ps = 60000;
	ctl.mode = 0;
	assert_false(kft_compensation_of(&ctl).known);
}

/* The deviation kd and kft stats print: from the durations themselves
 * (exact for calls of 1000 s, where a sum of squares keeps no digit of
 * it), and from sums where the durations were not kept. */
static void test_stddev(void **state)
{
	struct kft_durs d = { 0 };
	const int64_t big = 1000000000000LL;
	struct kft_spread sp;

	(void)state;
	assert_int_equal(kft_durs_add(&d, big + 1), 0);
	assert_int_equal(kft_durs_add(&d, big + 3), 0);
	assert_int_equal(kft_durs_spread(&d, 2 * big + 4, &sp, &err), 0);
	assert_true(sp.sd_ns == 1.0);
	kft_durs_free(&d);
	assert_true(kft_stddev_of_sums(2, 4, 10) == 1.0);	/* 1 and 3 */
	assert_true(kft_stddev_of_sums(0, 0, 0) == 0);
}

/* The nesting rule the trees share: recursion nests by depth, a signal
 * handler met inside a program call starts a chain of its own (its calls,
 * a handler inside it too, under it), and a call as deep as an open one
 * closes it. */
static void test_nest(void **state)
{
	/* main > f > f(recursion) ; handler h > g, a nested handler k ; f2 */
	static const struct {
		uint32_t depth;
		bool irq;
		enum kft_nest_place place;
		uint32_t level;
	} seq[] = {
		{ 0, false, KFT_NEST_ROOT, 0 },	  { 1, false, KFT_NEST_CHILD, 1 },
		{ 2, false, KFT_NEST_CHILD, 2 },  { 3, true, KFT_NEST_HANDLER, 0 },
		{ 4, true, KFT_NEST_CHILD, 1 },	  { 5, true, KFT_NEST_CHILD, 2 },
		{ 2, false, KFT_NEST_CHILD, 2 },  { 1, false, KFT_NEST_CHILD, 1 },
		{ 0, false, KFT_NEST_ROOT, 0 },
	};
	struct kft_nest n = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		struct kft_call c = { .depth = seq[i].depth,
				      .flags = seq[i].irq ? KFT_REC_SIGNAL : 0 };
		uint32_t level = 99;

		assert_int_equal(kft_nest_place(&n, &c, &level), seq[i].place);
		assert_int_equal(level, seq[i].level);
		/* a handler's chain is a tree of its own: its root at 0 */
		assert_non_null(kft_nest_push(&n, &c, level));
	}
	kft_nest_reset(&n);
	{
		struct kft_call c = { .depth = 7 };
		uint32_t level;

		assert_int_equal(kft_nest_place(&n, &c, &level), KFT_NEST_ROOT);
	}
	kft_nest_free(&n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nesting_per_thread),
		cmocka_unit_test(test_unfinished_call_ends),
		cmocka_unit_test(test_classic_nesting),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_classic_stats),
		cmocka_unit_test(test_rounding_tolerance),
		cmocka_unit_test(test_compensation),
		cmocka_unit_test(test_stddev),
		cmocka_unit_test(test_nest),
	};

	return cmocka_run_group_tests_name("analysis", tests, NULL, teardown);
}
