// SPDX-License-Identifier: GPL-2.0-only
/* KFT text logs: every row form the kernel and KFI printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "format/call-stream.h"
#include "format/text-log.h"

static struct kft_text_row row;
static struct kft_error err;

static int parse(const char *text)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s", text);
	return kft_text_log_parse_row(&row, buf, "t.log", 7, &err);
}

static void release(void)
{
	free(row.func);
	free(row.caller);
	free(row.args);
	memset(&row, 0, sizeof(row));
}

/* A marker's row (Entry # PID text) is passed over; a row is not. */
static void test_marker_rows(void **state)
{
	(void)state;
	assert_true(kft_text_log_is_marker("     291        #    5674   between, n=42\n"));
	assert_true(kft_text_log_is_marker("1 # 2 x"));
	assert_false(kft_text_log_is_marker("     293        0    5674   b   main+0x4a\n"));
	assert_false(kft_text_log_is_marker("     293       #5    5674   b   main+0x4a\n"));
	assert_false(kft_text_log_is_marker("#"));
	assert_false(kft_text_log_is_marker(""));
}

static void test_raw_row(void **state)
{
	assert_int_equal(parse("       7       -1      33  0xc0021e88                       0xc0023f58\n"), 0);
	assert_int_equal(row.entry_ns, 7000);
	assert_int_equal(row.delta_ns, -1);
	assert_string_equal(row.pid, "33");
	assert_int_equal(row.tid, 33);
	assert_false(row.irq);
	assert_string_equal(row.func, "0xc0021e88");
	assert_string_equal(row.caller, "0xc0023f58");
	assert_null(row.args);
	assert_int_equal(row.line, 7);
	release();
}

static void test_named_interrupt_and_cpu(void **state)
{
	assert_int_equal(parse("     253      151      -1  timer_interrupt   __irq_svc+0x40"), 0);
	assert_true(row.irq);
	assert_int_equal(row.tid, -1);
	assert_string_equal(row.caller, "__irq_svc+0x40");
	release();
	assert_int_equal(parse("  20300   12   33.1  schedule  do_fork+0x100"), 0);
	assert_string_equal(row.pid, "33.1");
	assert_int_equal(row.tid, 33);
	assert_int_equal(row.coroutine, 0);
	assert_false(row.irq);
	release();
}

/* kft log's PID for a coroutine's stack, as kft_pid_label writes it */
static void test_coroutine_pid(void **state)
{
	char label[24];

	assert_int_equal(kft_pid_label(label, 4321, 2, false), 6);
	assert_string_equal(label, "4321/2");
	assert_int_equal(parse("  5  1  4321/2  leaf  co_body+0x34"), 0);
	assert_int_equal(row.tid, 4321);
	assert_int_equal(row.coroutine, 2);
	assert_false(row.irq);
	release();
	kft_pid_label(label, 7, 12, true);
	assert_string_equal(label, "7/12i");
	assert_int_equal(parse("  5  1  7/12i  h  co_body+0x34"), 0);
	assert_int_equal(row.coroutine, 12);
	assert_true(row.irq);
	release();
	kft_pid_label(label, 7, 0, false);
	assert_string_equal(label, "7");
	assert_int_equal(parse("  5  1  7/  h  g"), -1);
	release();
}

static void test_old_forms(void **state)
{
	/* KFI: the words "no exit" for the delta */
	assert_int_equal(parse("  12  no exit  5  do_fork  sys_clone+0x24"), 0);
	assert_int_equal(row.delta_ns, -1);
	assert_string_equal(row.func, "do_fork");
	release();
	/* the printk dump: 'i' after an interrupt's pid, unset delta */
	assert_int_equal(parse("      15   4294967295        12i   c0023f10   c000a1e4"), 0);
	assert_int_equal(row.delta_ns, -1);
	assert_true(row.irq);
	assert_int_equal(row.tid, 12);
	assert_string_equal(row.func, "c0023f10");
	release();
	/* saved arguments after the caller */
	assert_int_equal(parse("  1 2 3 f g+0x4 0xbeef 0x1 0x2 0x3"), 0);
	assert_string_equal(row.args, "0xbeef 0x1 0x2 0x3");
	release();
	/* an address inside a function (-pg, through addr2sym) names it */
	assert_int_equal(parse("  1 2 3 main+0xe libc+0x10"), 0);
	assert_string_equal(row.func, "main");
	assert_string_equal(row.caller, "libc+0x10");
	release();
	/* stack watch rows */
	assert_int_equal(parse("  1 -2 3 f g"), 0);
	assert_int_equal(row.delta_ns, -2);
	release();
	/* a call entered as another thread started the run (its clock read
	 * just before the start's): kft log prints it before 0 */
	assert_int_equal(parse("  -12 5 3 f g"), 0);
	assert_int_equal(row.entry_ns, -12000);
	release();
}

static void test_errors(void **state)
{
	assert_int_equal(parse("  1 2 3 f"), -1);
	assert_string_equal(err.msg, "t.log:7: expected 'Entry Delta PID Function Caller', found 4 words");
	/* found by fuzzing: times whose ns do not fit 64 bits */
	assert_int_equal(parse("  11111111111111111 2 3 f g"), -1);
	assert_string_equal(err.msg, "t.log:7: '11111111111111111': Entry is not a time in usec");
	assert_int_equal(parse("  1 11111111111111111 3 f g"), -1);
	assert_string_equal(err.msg, "t.log:7: '11111111111111111': Delta is not a duration in usec");
	assert_int_equal(parse("  -11111111111111111 2 3 f g"), -1);
	assert_string_equal(err.msg, "t.log:7: '-11111111111111111': Entry is not a time in usec");
	assert_int_equal(parse("  x 2 3 f g"), -1);
	assert_string_equal(err.msg, "t.log:7: 'x': Entry is not a time in usec");
	assert_int_equal(parse("  1 -3 3 f g"), -1);
	assert_string_equal(err.msg, "t.log:7: '-3': Delta is not a duration in usec");
	assert_int_equal(parse("  1 2 3x f g"), -1);
	assert_string_equal(err.msg, "t.log:7: '3x': not a PID");
	assert_int_equal(parse("  1 no exit 3 f"), -1);
	assert_string_equal(err.msg, "t.log:7: expected PID, Function and Caller after the Delta");
}

/* A log's rows, counted through the reader; -1 on its error. The line
 * of the last row goes into *last_line. */
static int rows_of(const char *path, unsigned int *last_line)
{
	struct kft_text_reader *r = kft_text_reader_open(path, 0, &err);
	const struct kft_text_row *read;
	int n = 0, got;

	if (!r)
		return -1;
	while ((got = kft_text_reader_next(r, &read, &err)) > 0) {
		*last_line = read->line;
		n++;
	}
	kft_text_reader_close(r);
	return got < 0 ? -1 : n;
}

static void test_load(void **state)
{
	char path[] = "/tmp/kft-test-log-XXXXXX";
	unsigned int line = 0;
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	(void)state;
	fputs("\nKernel Instrumentation Run ID 0\n\n Entry Delta PID Function Caller\n"
	      "-------- -------- --------\n   1   2   3  f  g+0x1\n\n   4  -1  3  h  f+0x2\n", f);
	fclose(f);
	assert_int_equal(rows_of(path, &line), 2);
	assert_int_equal(line, 8);

	f = fopen(path, "w");
	fputs("-------- --------\n   1   2   3  f  g\nLogging is running\n", f);
	fclose(f);
	assert_int_equal(rows_of(path, &line), -1);
	assert_non_null(strstr(err.msg, ":3: expected 'Entry Delta PID Function Caller'"));

	f = fopen(path, "w");
	fputs("No logging run registered\n", f);
	fclose(f);
	assert_int_equal(rows_of(path, &line), -1);
	assert_non_null(strstr(err.msg, "not a KFT log"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raw_row),
		cmocka_unit_test(test_named_interrupt_and_cpu),
		cmocka_unit_test(test_coroutine_pid),
		cmocka_unit_test(test_old_forms),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_marker_rows),
	};

	return cmocka_run_group_tests_name("text-log", tests, NULL, NULL);
}
