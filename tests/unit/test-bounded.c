// SPDX-License-Identifier: GPL-2.0-only
/* What lets the views read any length in bounded memory: the spilled
 * per-call arrays, durations in 4 bytes, sorting in place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
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

/* Long and short durations mixed, n of them, spilled to the temporary
 * file or not: the nearest-rank percentiles a sorted int64 array gives,
 * and its deviation (the same sum in memory; summed in another order
 * when they went to the file: equal to 1e-12). */
static void durations_exact(size_t n, uint64_t seed, bool spilled)
{
	struct kft_durs d = { 0 };
	int64_t *all = malloc(n * sizeof(*all)), sum = 0;
	struct kft_spread sp;
	struct kft_error err;
	double var = 0, sd;

	assert_non_null(all);
	for (size_t i = 0; i < n; i++) {
		int64_t v = (int64_t)(next_rand(&seed) % 5000);

		if (i % 97 == 0)
			v += (int64_t)UINT32_MAX - 2000;	/* around the 32-bit edge */
		if (i % 1001 == 0)
			v = (int64_t)1 << 40;
		if (i % 89 == 0)
			v = 70000 + (int64_t)(next_rand(&seed) % 3);	/* ties */
		all[i] = v;
		sum += v;
		assert_int_equal(kft_durs_add(&d, v), 0);
	}
	assert_int_equal(kft_durs_count(&d), n);
	assert_true(kft_spill_list_in_memory(&d.small) == !spilled);
	kft_sort_i64(all, n);
	for (size_t i = 0; i < n; i++)
		var += ((double)all[i] - (double)sum / (double)n) * ((double)all[i] - (double)sum / (double)n);
	sd = sqrt(var / (double)n);
	assert_int_equal(kft_durs_spread(&d, sum, &sp, &err), 0);
	assert_int_equal(sp.min_ns, all[0]);
	assert_int_equal(sp.max_ns, all[n - 1]);
	assert_int_equal(sp.p50_ns, all[(n * 50 + 99) / 100 - 1]);
	assert_int_equal(sp.p95_ns, all[(n * 95 + 99) / 100 - 1]);
	assert_int_equal(sp.p99_ns, all[(n * 99 + 99) / 100 - 1]);
	if (spilled)
		assert_true(fabs(sp.sd_ns - sd) <= 1e-12 * sd);
	else
		assert_true(sp.sd_ns == sd);
	kft_durs_free(&d);
	free(all);
}

/* In memory (a few thousand), and in the temporary file (more). */
static void test_durations_exact(void **state)
{
	(void)state;
	durations_exact(1, 5, false);
	durations_exact(1000, 3, false);
	durations_exact(10007, 7, true);
	durations_exact(300001, 11, true);
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
