// SPDX-License-Identifier: GPL-2.0-only
/* A trace directory as kft record lays it out: its clock, set again as
 * the program is let go. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/mono-clock.h"
#include "common/tsc-rate.h"
#include "config/config.h"
#include "format/control.h"
#include "format/reader.h"
#include "format/trace-files.h"
#include "record/target.h"
#include "record/trace-dir.h"

static char dir[] = "/tmp/kft-unit-dir-XXXXXX";

static struct kft_control *new_run(void)
{
	struct kft_config cfg;
	struct kft_error err;
	struct kft_control *ctl;

	kft_config_init(&cfg);
	assert_int_equal(kft_trace_dir_prepare(dir, &err), 0);
	assert_int_equal(kft_trace_dir_write_run(dir, &cfg, true, 0, 0, &err), 0);
	kft_config_release(&cfg);
	ctl = kft_map_control(dir, "test", &err);
	assert_non_null(ctl);
	return ctl;
}

/* A `kft start` that came before the program was let go counts from the
 * program's start: no call may seem to come before it. */
static void test_start_before_the_program_runs(void **state)
{
	struct kft_control *ctl = new_run();
	uint64_t old = ctl->clock_base_ns, base;

	(void)state;
	assert_true(kft_control_start(ctl, KFT_HOW_USER, kft_mono_now_ns() - old, 0, 0, 0));
	assert_true(ctl->first_start_ns > 0 || kft_mono_now_ns() == old);
	kft_nap_ms(3);
	assert_int_equal(kft_trace_dir_reset_clock(dir, &base), 0);
	assert_true(base >= old + 3000000);
	assert_true(ctl->clock_base_ns == base);
	assert_true(ctl->first_start_ns == 0);
	assert_true(ctl->start.mark_ns == 0);
	assert_int_equal(ctl->stop.how, 0);
	kft_unmap_control(ctl);
}

/* Nothing fired: the clock alone moves. */
static void test_nothing_fired(void **state)
{
	struct kft_control *ctl = new_run();
	uint64_t base;

	(void)state;
	kft_nap_ms(1);
	assert_int_equal(kft_trace_dir_reset_clock(dir, &base), 0);
	assert_true(ctl->clock_base_ns == base);
	assert_true(ctl->first_start_ns == UINT64_MAX);
	assert_int_equal(ctl->start.how, 0);
	assert_true(ctl->start.mark_ns == 0);
	kft_unmap_control(ctl);
}

static int remove_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

/* The rates a TSC of 10 MHz to 100 GHz could have, and no other. */
static void test_tsc_rate_bounds(void **state)
{
	(void)state;
	assert_true(kft_tsc_mult_valid(1867377403ULL));
	assert_false(kft_tsc_mult_valid(0));
	assert_true(kft_tsc_mult_valid(42949672ULL));	/* 0.01 ns a tick */
	assert_false(kft_tsc_mult_valid(42949671ULL));
	assert_true(kft_tsc_mult_valid(429496729600ULL));	/* 100 */
	assert_false(kft_tsc_mult_valid(429496729601ULL));
	assert_false(kft_tsc_mult_valid(UINT64_MAX));
}

/* kft record leaves the rate after the control file's struct, where the
 * runtime reads it; what the struct holds stays as it was. */
static void test_tsc_rate_in_the_control_file(void **state)
{
	struct kft_control *ctl = new_run();
	uint64_t base = ctl->clock_base_ns, mult = 0;
	struct kft_error err;
	char path[64];
	FILE *f;

	(void)state;
	kft_unmap_control(ctl);
	assert_int_equal(kft_trace_dir_set_tsc_mult(dir, 1867377403ULL, &err), 0);
	snprintf(path, sizeof(path), "%s/control", dir);
	assert_non_null(f = fopen(path, "r"));
	assert_int_equal(fseek(f, (long)KFT_CONTROL_TSC_MULT_OFF, SEEK_SET), 0);
	assert_int_equal(fread(&mult, sizeof(mult), 1, f), 1);
	fclose(f);
	assert_int_equal(mult, 1867377403ULL);
	assert_non_null(ctl = kft_map_control(dir, "test", &err));
	assert_int_equal(ctl->clock_base_ns, base);
	kft_unmap_control(ctl);
}

/* A control file as kft wrote it before --compensate's calibration was
 * kept (the struct KFT_CONTROL_SIZE_OLDEST bytes) reads, those fields 0;
 * one whose struct claims more than the file holds is corrupt. */
static void test_older_control_struct(void **state)
{
	struct kft_control *ctl = new_run();
	struct kft_trace tr;
	struct kft_error err;
	char path[64];
	uint32_t size = KFT_CONTROL_SIZE_OLDEST;

	(void)state;
	ctl->mode |= KFT_MODE_COMPENSATE;
	ctl->comp_gap_ps = ctl->comp_spread_ps = ctl->comp_taken_ps = 1234;
	ctl->size = size;
	kft_unmap_control(ctl);
	snprintf(path, sizeof(path), "%s/control", dir);
	assert_int_equal(truncate(path, size), 0);
	assert_int_equal(kft_trace_open(&tr, dir, &err), 0);
	assert_int_equal(tr.ctl.size, size);
	assert_true(tr.ctl.mode & KFT_MODE_COMPENSATE);
	assert_int_equal(tr.ctl.comp_gap_ps, 0);
	assert_int_equal(tr.ctl.comp_taken_ps, 0);
	kft_trace_close(&tr);
	assert_int_equal(truncate(path, size - 8), 0);
	assert_int_not_equal(kft_trace_open(&tr, dir, &err), 0);
	assert_non_null(strstr(err.msg, "truncated or corrupt"));
}

/* The names kft gives a trace's files, and no others; a directory
 * holds a trace when its control file says so; the info file as both
 * kft record and a static run write it; a file put only where none is. */
static void test_trace_files(void **state)
{
	static const char *const ours[] = { "control", "config", "info", "maps-12", "spare-0",
					    "latency-func", "latency.3", "config-run2",
					    "thread-1-2.kft", "thread-1-2-3.kfz", "thread-1-2.args",
					    ".thread-1-2.kft.tmp", "patch-plan", "vdso" };
	static const char *const others[] = { "maps-", "maps-x", "spare-1a", "thread-1.kft",
					      "thread-1-2.txt", "latency.", "notes", ".tmp" };
	char info[256], want[256];
	int dfd;

	(void)state;
	for (size_t i = 0; i < sizeof(ours) / sizeof(ours[0]); i++)
		assert_true(kft_trace_file_name(ours[i]));
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		assert_false(kft_trace_file_name(others[i]));
	kft_trace_info(info, sizeof(info), "1.0", "./prog 3", "status = running\n");
	snprintf(want, sizeof(want), "kft-version = 1.0\nformat = %d\nclock = monotonic\n"
		 "command = ./prog 3\nstatus = running\n", KFT_FORMAT_VERSION);
	assert_string_equal(info, want);
	kft_trace_info(info, sizeof(info), "1.0", "", "");
	assert_non_null(strstr(info, "command =\n"));
	mkdir(dir, 0700);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	assert_int_equal(kft_trace_put_file(dfd, KFT_CONTROL_FILE, "KFTCTRL", 8, true), 0);
	assert_true(kft_trace_dir_holds(dfd));
	assert_int_not_equal(kft_trace_put_file(dfd, KFT_CONTROL_FILE, "x", 1, true), 0);
	assert_int_equal(kft_trace_put_file(dfd, KFT_CONTROL_FILE, "not ours", 8, false), 0);
	assert_false(kft_trace_dir_holds(dfd));
	close(dfd);
}

/* A rate measured over the least span foretells CLOCK_MONOTONIC 20 ms on
 * to within 20 us (1e-3; the measurement's own error is about 1e-5). */
static void test_tsc_rate_measured(void **state)
{
	uint64_t t0, n0, t1, n1, mult;
	double predicted;

	(void)state;
	if (!kft_tsc_usable())
		skip();
	kft_tsc_pair(&t0, &n0);
	mult = kft_tsc_mult_since(t0, n0);
	assert_true(mult != 0);
	assert_true(kft_mono_now_ns() - n0 >= KFT_TSC_RATE_SPAN_NS);
	kft_nap_ms(20);
	kft_tsc_pair(&t1, &n1);
	predicted = (double)(t1 - t0) * (double)mult / 4294967296.0;
	assert_true(predicted > (double)(n1 - n0) - 20000 && predicted < (double)(n1 - n0) + 20000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_start_before_the_program_runs, remove_dir),
		cmocka_unit_test_teardown(test_nothing_fired, remove_dir),
		cmocka_unit_test(test_tsc_rate_bounds),
		cmocka_unit_test_teardown(test_tsc_rate_in_the_control_file, remove_dir),
		cmocka_unit_test(test_tsc_rate_measured),
		cmocka_unit_test_teardown(test_older_control_struct, remove_dir),
		cmocka_unit_test_teardown(test_trace_files, remove_dir),
	};

	if (!mkdtemp(dir))
		return 1;
	return cmocka_run_group_tests(tests, NULL, remove_dir);
}
