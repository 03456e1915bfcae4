// SPDX-License-Identifier: GPL-2.0-only
/* What lets the views read any length in bounded memory: the spilled
 * per-call arrays, durations in 4 bytes, sorting in place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "analysis/durations.h"
#include "common/sort.h"
#include "common/spill.h"

/* a reproducible sequence */
static uint64_t next_rand(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

/* Written in the orders the readers use (backwards as the walk leaves
 * calls; forwards with late values for calls that stayed open, as the
 * kernel join settles them), read forwards, and at random: the values
 * as an array in memory holds them. */
static void check_order(uint64_t n, int order)
{
	struct kft_spill32 a;
	struct kft_error err;
	uint32_t *want = calloc(n, sizeof(*want));
	uint64_t seed = 42;

	assert_non_null(want);
	assert_int_equal(kft_spill32_init(&a, n, &err), 0);
	if (order == 0) {
		for (uint64_t i = n; i-- > 0;) {
			want[i] = (uint32_t)next_rand(&seed);
			assert_int_equal(kft_spill32_set(&a, i, want[i]), 0);
		}
	} else {
		/* every 7th value is set late, 50000 places on */
		for (uint64_t i = 0; i < n + 50000; i++) {
			if (i < n && i % 7) {
				want[i] = (uint32_t)next_rand(&seed);
				assert_int_equal(kft_spill32_set(&a, i, want[i]), 0);
			}
			if (i >= 50000 && (i - 50000) % 7 == 0 && i - 50000 < n) {
				want[i - 50000] = (uint32_t)next_rand(&seed);
				assert_int_equal(kft_spill32_set(&a, i - 50000, want[i - 50000]), 0);
			}
		}
	}
	for (uint64_t i = 0; i < n; i++)
		assert_int_equal(kft_spill32_get(&a, i), want[i]);
	for (int k = 0; k < 1000; k++) {
		uint64_t i = next_rand(&seed) % n;

		assert_int_equal(kft_spill32_get(&a, i), want[i]);
	}
	assert_int_equal(kft_spill32_check(&a, &err), 0);
	kft_spill32_free(&a);
	free(want);
}

static void test_spill_small_and_large(void **state)
{
	(void)state;
	for (int order = 0; order < 2; order++) {
		check_order(1, order);
		check_order(1000, order);	/* in memory */
		check_order(300001, order);	/* in a file: pages, and a part page */
	}
}

/* Unset values read as 0, wherever they are. */
static void test_spill_unset_is_zero(void **state)
{
	struct kft_spill32 a;
	struct kft_error err;

	(void)state;
	assert_int_equal(kft_spill32_init(&a, 100000, &err), 0);
	assert_int_equal(kft_spill32_set(&a, 99999, 7), 0);
	assert_int_equal(kft_spill32_set(&a, 0, 5), 0);
	assert_int_equal(kft_spill32_get(&a, 50000), 0);
	assert_int_equal(kft_spill32_get(&a, 99999), 7);
	assert_int_equal(kft_spill32_get(&a, 0), 5);
	kft_spill32_free(&a);
}

/* Long and short durations mixed: each rank as a sorted int64 array has
 * it, and the nearest-rank percentiles. */
static void test_durations_exact(void **state)
{
	struct kft_durs d = { 0 };
	enum { N = 10007 };
	int64_t *all = malloc(N * sizeof(*all));
	uint64_t seed = 7;

	(void)state;
	assert_non_null(all);
	for (size_t i = 0; i < N; i++) {
		int64_t v = (int64_t)(next_rand(&seed) % 5000);

		if (i % 97 == 0)
			v += (int64_t)UINT32_MAX - 2000;	/* around the 32-bit edge */
		if (i % 1001 == 0)
			v = (int64_t)1 << 40;
		all[i] = v;
		assert_int_equal(kft_durs_add(&d, v), 0);
	}
	assert_int_equal(kft_durs_count(&d), N);
	kft_sort_i64(all, N);
	kft_durs_sort(&d);
	for (size_t i = 0; i < N; i++)
		assert_int_equal(kft_durs_at(&d, i), all[i]);
	assert_int_equal(kft_durs_percentile(&d, 50), all[(N * 50 + 99) / 100 - 1]);
	assert_int_equal(kft_durs_percentile(&d, 99), all[(N * 99 + 99) / 100 - 1]);
	assert_int_equal(kft_durs_percentile(&d, 100), all[N - 1]);
	assert_int_equal(kft_durs_percentile(&d, 0), all[0]);
	kft_durs_free(&d);
	free(all);
}

static void test_sort_u32(void **state)
{
	enum { N = 5000 };
	uint32_t v[N];
	uint64_t seed = 3;

	(void)state;
	for (size_t i = 0; i < N; i++)
		v[i] = i % 3 ? (uint32_t)next_rand(&seed) : 17;	/* runs of equals */
	kft_sort_u32(v, N);
	for (size_t i = 1; i < N; i++)
		assert_true(v[i - 1] <= v[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spill_small_and_large),
		cmocka_unit_test(test_spill_unset_is_zero),
		cmocka_unit_test(test_durations_exact),
		cmocka_unit_test(test_sort_u32),
	};

	return cmocka_run_group_tests_name("bounded", tests, NULL, NULL);
}
