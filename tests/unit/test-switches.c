// SPDX-License-Identifier: GPL-2.0-only
/* A trace's context switches: the spans off the CPU, and how much of a
 * call they cover, on a switches file written here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/switches.h"
#include "format/trace-format.h"

static char dir[] = "/tmp/kft-unit-sw-XXXXXX";

static void write_file(const struct kft_switch *v, size_t n, size_t cut)
{
	struct kft_switches_hdr hdr = { .magic = KFT_SWITCHES_MAGIC, .version = 1,
					.rec_size = sizeof(*v) };
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/switches", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite(&hdr, sizeof(hdr), 1, f);
	fwrite(v, sizeof(*v), n, f);
	fclose(f);
	if (cut)
		assert_int_equal(truncate(path, (off_t)(sizeof(hdr) + n * sizeof(*v) - cut)), 0);
}

#define OUT(ns, tid) { ns, 1, tid, 0, KFT_SWITCH_OUT, KFT_SWITCH_UNKNOWN_TID, -1, -1 }
#define IN(ns, tid) { ns, 1, tid, 0, 0, KFT_SWITCH_UNKNOWN_TID, -1, -1 }

/* Thread 7 off the CPU over [100, 200] and [300, 350], thread 8 over
 * [150, 400] then out for good at 500; the records come out of order. */
static const struct kft_switch sample[] = {
	OUT(300, 7), IN(350, 7), OUT(150, 8), OUT(100, 7), IN(200, 7), IN(400, 8), OUT(500, 8),
};

static void test_spans_and_overlaps(void **state)
{
	struct kft_switches sw;
	struct kft_error err;
	const struct kft_offcpu *s;
	size_t n;

	(void)state;
	write_file(sample, sizeof(sample) / sizeof(sample[0]), 0);
	assert_int_equal(kft_switches_load(&sw, dir, &err), 0);
	assert_true(sw.present);
	assert_int_equal(sw.nswitches, 7);
	s = kft_switches_of(&sw, 7, &n);
	assert_int_equal(n, 2);
	assert_int_equal(s[0].from_ns, 100);
	assert_int_equal(s[1].to_ns, 350);
	assert_int_equal(s[0].from_state, '?');	/* the task before it came back: not known */
	/* the last switch out has no span: the thread ended there */
	s = kft_switches_of(&sw, 8, &n);
	assert_int_equal(n, 1);
	assert_null(kft_switches_of(&sw, 9, &n));
	/* whole, clipped, between, inside one, none */
	assert_int_equal(kft_switches_off_ns(&sw, 7, 0, 1000), 150);
	assert_int_equal(kft_switches_off_ns(&sw, 7, 150, 320), 70);
	assert_int_equal(kft_switches_off_ns(&sw, 7, 200, 300), 0);
	assert_int_equal(kft_switches_off_ns(&sw, 7, 120, 180), 60);
	assert_int_equal(kft_switches_off_ns(&sw, 7, 340, 360), 10);
	assert_int_equal(kft_switches_off_ns(&sw, 7, 360, 900), 0);
	assert_int_equal(kft_switches_off_ns(&sw, 8, 0, 1000), 250);
	assert_int_equal(kft_switches_off_ns(&sw, 9, 0, 1000), 0);
	kft_switches_free(&sw);
}

/* sched_wakeup records: by the thread woken, each in time order; the
 * waker's priority, which the event does not carry, from its switches. */
static void test_wakeups_by_thread(void **state)
{
	static const struct kft_switch v[] = {
		{ 50, 1, 9, 1, KFT_SWITCH_WAKEUP, 8, 120, -1 },
		{ 10, 1, 7, 0, KFT_SWITCH_WAKEUP, 3, 110, -1 },
		{ 20, 1, 9, 0, KFT_SWITCH_WAKEUP, 7, 121, -1 },
		{ 30, 1, 7, 0, KFT_SWITCH_WAKEUP, 8, 110, -1 },
		{ 100, 1, 8, 0, KFT_SWITCH_OUT, 7, 130, 110 },
		{ 200, 1, 8, 0, 0, 7, 130, 110 },
	};
	struct kft_switches sw;
	struct kft_error err;
	const struct kft_wakeup *w;
	size_t n;

	(void)state;
	write_file(v, sizeof(v) / sizeof(v[0]), 0);
	assert_int_equal(kft_switches_load(&sw, dir, &err), 0);
	assert_int_equal(sw.nwakeups, 4);
	w = kft_switches_wakeups_of(&sw, 7, &n);
	assert_int_equal(n, 2);
	assert_int_equal(w[0].ns, 10);
	assert_int_equal(w[0].waker, 3);
	assert_int_equal(w[0].waker_prio, -1);	/* 3 never switched */
	assert_int_equal(w[1].ns, 30);
	assert_int_equal(w[1].waker_prio, 130);	/* 8's own */
	w = kft_switches_wakeups_of(&sw, 9, &n);
	assert_int_equal(n, 2);
	assert_int_equal(w[0].ns, 20);
	assert_int_equal(w[1].cpu, 1);
	assert_null(kft_switches_wakeups_of(&sw, 8, &n));
	assert_int_equal(n, 0);
	kft_switches_free(&sw);
}

static void test_absent_short_and_bad(void **state)
{
	struct kft_switches sw;
	struct kft_error err;
	char path[256];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/switches", dir);
	unlink(path);
	assert_int_equal(kft_switches_load(&sw, dir, &err), 0);
	assert_false(sw.present);
	assert_int_equal(kft_switches_off_ns(&sw, 7, 0, 1000), 0);
	/* cut inside the last record: what it holds */
	write_file(sample, 2, 5);
	assert_int_equal(kft_switches_load(&sw, dir, &err), 0);
	assert_int_equal(sw.nswitches, 1);
	kft_switches_free(&sw);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("not a switches file at all", f);
	fclose(f);
	assert_int_equal(kft_switches_load(&sw, dir, &err), -1);
	assert_non_null(strstr(err.msg, "not a kft switches file"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spans_and_overlaps),
		cmocka_unit_test(test_wakeups_by_thread),
		cmocka_unit_test(test_absent_short_and_bad),
	};
	int ret;

	if (!mkdtemp(dir))
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(dir);
	return ret;
}
