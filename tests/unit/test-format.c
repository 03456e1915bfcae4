// SPDX-License-Identifier: GPL-2.0-only
/* The trace format: duration encoding and the run state machine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "format/control.h"
#include "format/trace-format.h"

static void test_dur_exact_below_2s(void **state)
{
	static const uint64_t ns[] = { 0, 1, 999, 1000000, (1ULL << 31) - 1 };

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		assert_int_equal(kft_dur_decode(kft_dur_encode(ns[i])), (int64_t)ns[i]);
}

static void test_dur_long_is_close(void **state)
{
	static const uint64_t ns[] = { 1ULL << 31, 3000000000ULL, 3600ULL * 1000000000ULL,
				       123456789012345ULL };

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		int64_t back = kft_dur_decode(kft_dur_encode(ns[i]));

		assert_true(back <= (int64_t)ns[i]);
		assert_true((double)((int64_t)ns[i] - back) / (double)ns[i] < 2e-8);
	}
}

static void test_dur_never_collides_with_markers(void **state)
{
	/* the largest durations saturate; they must not read as -1 or -2 */
	assert_true(kft_dur_decode(kft_dur_encode(UINT64_MAX)) > 0);
	assert_true(kft_dur_decode(kft_dur_encode(1ULL << 62)) > 0);
	assert_int_equal(kft_dur_decode(KFT_DUR_UNFINISHED), -1);
	assert_int_equal(kft_dur_decode(KFT_DUR_WATCH), -2);
}

static uint64_t gen(const struct kft_control *ctl)
{
	return ctl->state >> KFT_STATE_GEN_SHIFT;
}

static void test_state_trigger_needs_prime(void **state)
{
	struct kft_control ctl;

	kft_control_init(&ctl, 0, KFT_MODE_TIMED, false);
	assert_false(kft_control_start(&ctl, KFT_HOW_ENTRY, 10, 0x1, 1, 0));
	assert_true(kft_control_prime(&ctl));
	assert_true(kft_control_start(&ctl, KFT_HOW_ENTRY, 10, 0x1, 1, 0));
	assert_false(kft_control_start(&ctl, KFT_HOW_ENTRY, 11, 0x1, 1, 0));
	assert_int_equal(ctl.first_start_ns, 10);
	assert_int_equal(ctl.start.func, 0x1);
	assert_false(kft_control_prime(&ctl));
	assert_true(kft_control_stop(&ctl, KFT_HOW_EXIT, 20, 0x2, 1, 0));
	assert_true(ctl.state & KFT_STATE_COMPLETE);
	assert_int_equal(gen(&ctl), 1);
	assert_false(kft_control_stop(&ctl, KFT_HOW_EXIT, 21, 0x2, 1, 0));
	assert_false(kft_control_start(&ctl, KFT_HOW_USER, 22, 0, 1, 0));
	assert_int_equal(ctl.stop.mark_ns, 20);
}

static void test_state_user_start_and_stop(void **state)
{
	struct kft_control ctl;

	kft_control_init(&ctl, 0, KFT_MODE_TIMED, false);
	/* a stop trigger before any start does nothing ... */
	assert_false(kft_control_stop(&ctl, KFT_HOW_TIME, 5, 0, 1, 5));
	/* ... but the user may start without priming, and stop at any time */
	assert_true(kft_control_start(&ctl, KFT_HOW_USER, 6, 0, 1, 0));
	assert_true(kft_control_stop(&ctl, KFT_HOW_USER, 7, 0, 1, 0));
	assert_int_equal(ctl.stop.how, KFT_HOW_USER);

	kft_control_init(&ctl, 0, KFT_MODE_TIMED, true);
	assert_true(kft_control_stop(&ctl, KFT_HOW_USER, 1, 0, 1, 0));
	assert_true(ctl.state & KFT_STATE_COMPLETE);
	assert_false(ctl.state & KFT_STATE_TRIGGERED);
}

static void test_state_autorepeat(void **state)
{
	struct kft_control ctl;

	kft_control_init(&ctl, 0, KFT_MODE_TIMED | KFT_MODE_AUTOREPEAT, true);
	for (int i = 0; i < 3; i++) {
		assert_true(kft_control_start(&ctl, KFT_HOW_ENTRY, 10 * i, 0x1, 1, 0));
		assert_true(kft_control_stop(&ctl, KFT_HOW_EXIT, 10 * i + 5, 0x1, 1, 0));
		assert_int_equal(ctl.state & KFT_STATE_FLAGS, KFT_STATE_PRIMED);
		assert_int_equal(gen(&ctl), (uint64_t)i + 1);
	}
	assert_int_equal(ctl.first_start_ns, 0);
	/* a full log ends the run for good */
	assert_true(kft_control_start(&ctl, KFT_HOW_ENTRY, 40, 0x1, 1, 0));
	assert_true(kft_control_stop(&ctl, KFT_HOW_LOG_FULL, 41, 0, 1, 0));
	assert_true(ctl.state & KFT_STATE_COMPLETE);
	assert_false(kft_control_prime(&ctl));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dur_exact_below_2s),
		cmocka_unit_test(test_dur_long_is_close),
		cmocka_unit_test(test_dur_never_collides_with_markers),
		cmocka_unit_test(test_state_trigger_needs_prime),
		cmocka_unit_test(test_state_user_start_and_stop),
		cmocka_unit_test(test_state_autorepeat),
	};

	return cmocka_run_group_tests_name("format", tests, NULL, NULL);
}
