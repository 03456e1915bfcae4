// SPDX-License-Identifier: GPL-2.0-only
/* The trace format: records, call sites, durations and the run state machine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "format/args-file.h"
#include "format/call-args.h"
#include "format/control.h"
#include "format/enum-defs.h"
#include "format/patch-plan.h"
#include "format/site-table.h"
#include "format/trace-format.h"
#include "format/thread-writer.h"
#include "format/zcodec.h"
#include "format/zreader.h"
#include "format/zwriter.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

/* A patch plan's module block: whole, or refused (the runtime, the
 * symbolizer and kft record -p's restore read it alike). */
static void test_patch_plan_block(void **state)
{
	size_t whole = sizeof(struct kft_plan_hdr) + 2 * sizeof(struct kft_plan_func) +
		       3 * sizeof(struct kft_plan_caller);
	struct kft_plan_hdr *h = calloc(1, whole + 64);

	(void)state;
	assert_non_null(h);
	memcpy(h->magic, KFT_PLAN_MAGIC, sizeof(KFT_PLAN_MAGIC));
	h->version = KFT_PLAN_VERSION;
	h->nfuncs = 2;
	h->ncallers = 3;
	strcpy(h->path, "/bin/prog");
	assert_int_equal(kft_plan_block(h, whole + 64), whole);
	assert_int_equal(kft_plan_block(h, whole), whole);
	assert_int_equal(kft_plan_block(h, whole - 1), 0);	/* a caller cut */
	assert_int_equal(kft_plan_block(h, sizeof(*h) - 1), 0);
	assert_ptr_equal(kft_plan_callers(h), (const void *)(kft_plan_funcs(h) + 2));
	h->nfuncs = UINT32_MAX;					/* no overflow */
	assert_int_equal(kft_plan_block(h, whole), 0);
	h->nfuncs = 2;
	h->ncallers = UINT32_MAX;
	assert_int_equal(kft_plan_block(h, whole), 0);
	h->ncallers = 3;
	h->version = KFT_PLAN_VERSION - 1;			/* an older kft's */
	assert_int_equal(kft_plan_block(h, whole), 0);
	h->version = KFT_PLAN_VERSION;
	memset(h->path, 'x', sizeof(h->path));			/* no end to its path */
	assert_int_equal(kft_plan_block(h, whole), 0);
	free(h);
}

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

/* Every field survives packing into 16 bytes, at the edges of its range. */
static void test_rec_pack_round_trip(void **state)
{
	static const struct kft_site sites[] = { { 0x401000, 0x401234 }, { 0x7f0000001000, 0 } };
	static const struct { uint64_t entry; uint32_t depth, site, flags; } cases[] = {
		{ 0, 0, 0, 0 },
		{ 123456789, 7, 1, KFT_REC_SIGNAL },
		{ (1ULL << 48) - 1, 0xfffe, 0, KFT_REC_UNWOUND | KFT_REC_KERNEL },
		{ (1ULL << 55) - 1, 0x3fffe, 1, KFT_REC_FLAGS },
		{ 1ULL << 48, 0x10000, 1, KFT_REC_SIGNAL },
	};
	struct kft_rec r;
	struct kft_rec_data d;

	(void)state;
	assert_int_equal(sizeof(struct kft_rec), 16);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kft_rec_pack(&r, cases[i].entry, cases[i].depth, 4242, cases[i].site,
			     cases[i].flags);
		kft_rec_unpack(&r, sites, 2, &d);
		assert_int_equal(d.entry_ns, cases[i].entry);
		assert_int_equal(d.depth, cases[i].depth);
		assert_int_equal(d.dur, 4242);
		assert_int_equal(d.flags, cases[i].flags);
		assert_int_equal(d.func, sites[cases[i].site].func);
		assert_int_equal(d.call_site, sites[cases[i].site].call_site);
	}
	/* deeper than a record holds: saturates, never spills into the time */
	kft_rec_pack(&r, 99, 1000000, 1, 0, 0);
	kft_rec_unpack(&r, sites, 2, &d);
	assert_int_equal(d.depth, KFT_REC_DEPTH_MAX);
	assert_int_equal(d.entry_ns, 99);
	/* a site the table does not have (a corrupt record) reads as 0 */
	kft_rec_pack(&r, 5, 1, 1, 2, 0);
	kft_rec_unpack(&r, sites, 2, &d);
	assert_int_equal(d.func, 0);
	assert_int_equal(d.call_site, 0);
}

/* The site table numbers pairs once each, in order, and says when full. */
static void test_site_table(void **state)
{
	struct kft_site sites[4] = { { 0, 0 } };
	struct kft_site_slot index[8] = { { 0, 0, 0 } };
	uint64_t n = 0;
	struct kft_site_table t = { .sites = sites, .index = index, .nsites = &n, .cap = 4,
				    .nslots = 8 };

	(void)state;
	assert_int_equal(kft_site_id(&t, 0x10, 0x20), 0);
	assert_int_equal(kft_site_id(&t, 0x10, 0x21), 1);	/* same function, other site */
	assert_int_equal(kft_site_id(&t, 0x11, 0x20), 2);
	assert_int_equal(kft_site_id(&t, 0x10, 0x20), 0);
	assert_int_equal(kft_site_id(&t, 0x11, 0x20), 2);
	assert_int_equal(kft_site_id(&t, 0x12, 0x20), 3);
	assert_int_equal(n, 4);
	assert_int_equal(kft_site_id(&t, 0x13, 0x20), KFT_SITE_NONE);
	assert_int_equal(kft_site_id(&t, 0x10, 0x21), 1);	/* full, old ones still found */
	assert_int_equal(sites[1].func, 0x10);
	assert_int_equal(sites[1].call_site, 0x21);
}

/* Pairs that share a call site or a function, the pair (0, 0) (a free
 * slot holds zeros too) and pairs whose slots collide keep their ids,
 * before and after the index is rebuilt. */
static void test_site_index_exact(void **state)
{
	enum { N = 1000 };
	static struct kft_site sites[N + 1];
	static struct kft_site_slot small[2048], big[4096];
	uint64_t n = 0;
	struct kft_site_table t = { .sites = sites, .index = small, .nsites = &n, .cap = N + 1,
				    .nslots = 2048 };

	(void)state;
	assert_int_equal(kft_site_id(&t, 0, 0), 0);
	for (uint64_t i = 1; i < N; i++)	/* one site, many functions; one function, many sites */
		assert_int_equal(kft_site_id(&t, i % 2 ? 0x401000 : 0x401000 + i * 16,
					     i % 2 ? 0x402000 + i : 0x402000),
				 i);
	for (int pass = 0; pass < 2; pass++) {
		assert_int_equal(kft_site_id(&t, 0, 0), 0);
		for (uint64_t i = 1; i < N; i++)
			assert_int_equal(kft_site_id(&t, i % 2 ? 0x401000 : 0x401000 + i * 16,
						     i % 2 ? 0x402000 + i : 0x402000),
					 i);
		assert_int_equal(n, N);
		if (!pass)
			kft_site_reindex(&t, big, 4096);
	}
}

/* An index half full refuses a new site until it is rebuilt bigger; the
 * sites keep their numbers. */
static void test_site_index_grows(void **state)
{
	struct kft_site sites[8] = { { 0, 0 } };
	struct kft_site_slot small[4] = { { 0, 0, 0 } }, big[16] = { { 0, 0, 0 } };
	uint64_t n = 0;
	struct kft_site_table t = { .sites = sites, .index = small, .nsites = &n, .cap = 8,
				    .nslots = 4 };

	(void)state;
	assert_int_equal(kft_site_id(&t, 1, 1), 0);
	assert_int_equal(kft_site_id(&t, 2, 2), 1);
	assert_int_equal(kft_site_id(&t, 3, 3), KFT_SITE_NONE);
	assert_int_equal(n, 2);
	kft_site_reindex(&t, big, 16);
	assert_int_equal(kft_site_id(&t, 2, 2), 1);
	assert_int_equal(kft_site_id(&t, 1, 1), 0);
	assert_int_equal(kft_site_id(&t, 3, 3), 2);
	for (uint64_t i = 4; i <= 8; i++)
		assert_int_equal(kft_site_id(&t, i, i), i - 1);
	assert_int_equal(kft_site_id(&t, 9, 9), KFT_SITE_NONE);	/* the table is */
}

/* The runtime's growth as the runtime does it: one plan, both parts grown,
 * one retry. */
static uint32_t site_id_growing(struct kft_site_table *t, uint32_t max_cap, uint64_t func,
				uint64_t call_site)
{
	uint32_t id = kft_site_id(t, func, call_site), cap, nslots;

	if (id != KFT_SITE_NONE)
		return id;
	if (kft_site_grow_plan(t, max_cap, &cap, &nslots))
		return KFT_SITE_NONE;
	assert_true(cap >= t->cap && nslots >= t->nslots);
	t->cap = cap;
	if (nslots != t->nslots) {
		struct kft_site_slot *index = calloc(nslots, sizeof(*index));

		assert_non_null(index);
		free(t->index);
		kft_site_reindex(t, index, nslots);
	}
	return kft_site_id(t, func, call_site);
}

/* Every growth edge from 256 sites and first_slots slots, each doubling
 * on its own count: each new pair gets the next number after a single
 * growth, old pairs keep theirs, and only the format's limit refuses one. */
static void growth_edges_from(uint32_t first_slots)
{
	enum { N = 5000, MAX = 8192 };
	struct kft_site *sites = calloc(MAX, sizeof(*sites));
	uint64_t n = 0;
	struct kft_site_table t = { .sites = sites, .nsites = &n, .cap = KFT_FIRST_SITES,
				    .nslots = first_slots };
	uint32_t cap, nslots;

	assert_non_null(sites);
	t.index = calloc(t.nslots, sizeof(*t.index));
	for (uint64_t i = 0; i < N; i++) {
		assert_int_equal(site_id_growing(&t, MAX, 0x1000, 0x2000 + i), i);
		assert_true(kft_site_fits(&t) || n == t.cap || 2 * (n + 1) > t.nslots);
	}
	for (uint64_t i = 0; i < N; i += 97)
		assert_int_equal(kft_site_id(&t, 0x1000, 0x2000 + i), i);
	assert_int_equal(n, N);
	/* the table and the index full at once: both grow in one plan */
	t.cap = (uint32_t)n;
	assert_int_equal(kft_site_grow_plan(&t, 4 * MAX, &cap, &nslots), 0);
	assert_int_equal(cap, 2 * n);
	assert_true(2 * (n + 1) <= nslots);
	/* doubling stops at the limit */
	assert_int_equal(kft_site_grow_plan(&t, MAX, &cap, &nslots), 0);
	assert_int_equal(cap, MAX);
	t.cap = KFT_FIRST_SITES;
	while (t.cap < n)
		t.cap *= 2;
	/* at the limit, a new pair is refused and nothing grows */
	while (n < MAX)
		assert_int_not_equal(site_id_growing(&t, MAX, 0x3000, n), KFT_SITE_NONE);
	assert_int_equal(site_id_growing(&t, MAX, 0x4000, 1), KFT_SITE_NONE);
	assert_int_equal(kft_site_grow_plan(&t, MAX, &cap, &nslots), -1);
	assert_int_equal(kft_site_id(&t, 0x1000, 0x2000 + 4999), 4999);
	free(t.index);
	free(sites);
}

/* The runtime's sizes (512 slots: table and index fill together), and an
 * index that fills later than its table. */
static void test_site_growth_edges(void **state)
{
	(void)state;
	growth_edges_from(512);
	growth_edges_from(1024);
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

/* kft config's new run: loaded or primed, the old marks gone, the
 * generation and tracing off kept */
static void test_state_new_run(void **state)
{
	struct kft_control ctl;

	kft_control_init(&ctl, 0, KFT_MODE_TIMED, true);
	assert_true(kft_control_start(&ctl, KFT_HOW_ENTRY, 10, 0x1, 1, 0));
	assert_true(kft_control_pause(&ctl, true));
	assert_true(kft_control_stop(&ctl, KFT_HOW_USER, 20, 0, 0, 0));
	kft_control_new_run(&ctl, false);
	assert_int_equal(ctl.state & KFT_STATE_FLAGS, KFT_STATE_PAUSED);
	assert_int_equal(gen(&ctl), 1);
	assert_int_equal(ctl.start.how, 0);
	assert_int_equal(ctl.stop.how, 0);
	assert_false(kft_control_start(&ctl, KFT_HOW_ENTRY, 30, 0x1, 1, 0));	/* not primed */
	kft_control_new_run(&ctl, true);
	assert_int_equal(ctl.state & KFT_STATE_FLAGS, KFT_STATE_PAUSED | KFT_STATE_PRIMED);
	assert_true(kft_control_start(&ctl, KFT_HOW_ENTRY, 31, 0x1, 1, 0));
	assert_int_equal(ctl.start.mark_ns, 31);
	assert_int_equal(ctl.first_start_ns, 10);
	(void)state;
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

/* A frame of records of every shape (times going back, as a parent's
 * entry after its children's; the widest fields; every kind of duration)
 * comes back exact, in both codecs. */
static void test_zcodec_round_trip(void **state)
{
	static struct kft_rec in[KFT_ZCHUNK_RECS], out[KFT_ZCHUNK_RECS];
	static uint8_t scratch[KFT_ZCODEC_SCRATCH(KFT_ZCHUNK_RECS)];
	static const uint32_t codecs[] = { KFT_ZCODEC_ZSTD_DELTA, KFT_ZCODEC_ZSTD_COLUMNS,
					    KFT_ZCODEC_RICE };
	size_t work = kft_zcodec_work_size(KFT_ZCODEC_ZSTD_COLUMNS),
	       cap = kft_zcodec_bound(KFT_ZCHUNK_RECS), z;
	void *mem = malloc(work), *dst = malloc(cap);
	ZSTD_CCtx *cctx = kft_zcodec_init(mem, work);
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	uint64_t x = 88172645463325252ULL;

	(void)state;
	assert_non_null(cctx);
	assert_false(kft_zcodec_known(0));
	assert_false(kft_zcodec_known(4));
	for (uint32_t i = 0; i < KFT_ZCHUNK_RECS; i++) {
		static const uint32_t durs[] = { KFT_DUR_UNFINISHED, KFT_DUR_WATCH, 0, 0x9fffffffU };

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;	/* xorshift */
		kft_rec_pack(&in[i], i % 7 ? 1000000 + i * 40 : x >> 9, x & 0x3ffff,
			     i % 5 ? (uint32_t)(x >> 40) : durs[i / 5 % 4],
			     (uint32_t)x & KFT_SITE_MAX, (uint32_t)x & KFT_REC_FLAGS);
	}
	in[0].entry_depth = UINT64_MAX;
	in[1].entry_depth = 0;
	in[2].site_flags = UINT32_MAX;
	in[3].dur = UINT32_MAX - 2;
	for (size_t c = 0; c < sizeof(codecs) / sizeof(codecs[0]); c++) {
		assert_true(kft_zcodec_known(codecs[c]));
		for (uint32_t n = 1; n <= KFT_ZCHUNK_RECS; n *= 4) {
			z = kft_zcodec_pack(cctx, codecs[c], dst, cap, in, n, scratch);
			assert_true(z > 0);
			memset(out, 0xa5, sizeof(out));
			assert_int_equal(kft_zcodec_unpack(dctx, codecs[c], out, n, dst, z, scratch), 0);
			assert_memory_equal(in, out, n * sizeof(*in));
			/* a frame read as holding another count, or damaged, is refused */
			assert_int_equal(kft_zcodec_unpack(dctx, codecs[c], out, n + 1, dst, z, scratch),
					 -1);
			((uint8_t *)dst)[z / 2] ^= 0x40;
			assert_int_equal(kft_zcodec_unpack(dctx, codecs[c], out, n, dst, z, scratch), -1);
		}
	}
	ZSTD_freeDCtx(dctx);
	free(mem);
	free(dst);
}

/* Frames whose zstd content is made up (valid zstd, numbers of any shape)
 * are refused or read as records, never read past; any records read pack
 * and read back the same. (The sanitizer builds run this too.) */
static void test_zcodec_made_up_frames(void **state)
{
	enum { N = 64 };
	static const uint32_t codecs[] = { KFT_ZCODEC_ZSTD_DELTA, KFT_ZCODEC_ZSTD_COLUMNS,
					    KFT_ZCODEC_RICE };
	static uint8_t scratch[KFT_ZCODEC_SCRATCH(N)], raw[512];
	static struct kft_rec out[N], again[N];
	size_t work = kft_zcodec_work_size(KFT_ZCODEC_ZSTD_COLUMNS), cap = kft_zcodec_bound(N) + 1024;
	void *mem = malloc(work), *dst = malloc(cap);
	ZSTD_CCtx *cctx = kft_zcodec_init(mem, work);
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int read = 0;

	(void)state;
	assert_non_null(cctx);
	for (int round = 0; round < 4000; round++) {
		uint32_t codec = codecs[round % 2], n = 1 + round % N, len;
		size_t z;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		len = (uint32_t)(x % sizeof(raw));
		for (uint32_t i = 0; i < len; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			/* mostly small numbers, as real frames hold, some not */
			raw[i] = (uint8_t)(x % 5 ? x & 0x7f : x);
		}
		if (codec == KFT_ZCODEC_ZSTD_COLUMNS && len >= 12 && round % 3) {
			/* column lengths that add up, now and then */
			uint32_t part = (len - 12) / 4;

			for (int k = 0; k < 3; k++)
				for (int b = 0; b < 4; b++)
					raw[4 * k + b] = (uint8_t)(part >> (8 * b));
		}
		z = ZSTD_compress(dst, cap, raw, len, 1);
		assert_false(ZSTD_isError(z));
		if (kft_zcodec_unpack(dctx, codec, out, n, dst, z, scratch))
			continue;
		read++;
		z = kft_zcodec_pack(cctx, codec, dst, cap, out, n, scratch);
		assert_true(z > 0);
		assert_int_equal(kft_zcodec_unpack(dctx, codec, again, n, dst, z, scratch), 0);
		assert_memory_equal(out, again, n * sizeof(*out));
	}
	assert_true(read > 0);	/* some made-up frames were whole records */
	ZSTD_freeDCtx(dctx);
	free(mem);
	free(dst);
}

/* Rice frames damaged past their checksum (the checksum made right again,
 * as a fuzzer cannot) are refused or read as records, never read past;
 * any records read pack and read back the same. A frame of calls nested
 * as real ones are, so that both forms and every field are coded. */
static void test_rice_damaged_frames(void **state)
{
	enum { N = 512 };
	static struct kft_rec in[N], out[N], again[N];
	static uint8_t scratch[KFT_ZCODEC_SCRATCH(N)], frame[KFT_RICE_BOUND(N)],
		bad[KFT_RICE_BOUND(N)];
	uint64_t x = 0x2545f4914f6cdd1dULL, t = 5000000;
	uint32_t sum;
	size_t z, z2;

	(void)state;
	for (uint32_t i = 0; i < N; i++) {
		/* leaves at depth 3 in pairs, then their parent, now and then
		 * a grandparent: in the order calls end */
		uint32_t depth = i % 3 == 2 ? 2 : 3;

		if (i % 9 == 8)
			depth = 1;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		t += 20 + x % 40;
		kft_rec_pack(&in[i], t - (3 - depth) * 150 - 40, depth,
			     (uint32_t)((3 - depth) * 150 + 40 + x % 7), (uint32_t)(x >> 60) % 5,
			     i % 50 ? 0 : KFT_REC_SIGNAL);
	}
	z = kft_rice_pack(frame, sizeof(frame), in, N, scratch);
	assert_true(z > 5 && z < N * sizeof(*in) / 4);	/* coded, not raw */
	assert_int_equal(kft_rice_unpack(out, N, frame, z, scratch), 0);
	assert_memory_equal(in, out, sizeof(in));
	for (int round = 0; round < 20000; round++) {
		memcpy(bad, frame, z);
		for (int k = 0; k <= round % 3; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			bad[5 + x % (z - 5)] ^= (uint8_t)(1 + (x >> 32) % 255);
		}
		z2 = round % 7 ? z : z - 1 - round % 5;
		sum = kft_rice_checksum(bad + 5, z2 - 5);
		memcpy(bad + 1, &sum, sizeof(sum));	/* (little-endian, as frames are) */
		if (kft_rice_unpack(out, N, bad, z2, scratch))
			continue;	/* (most damage is; some reads as other records) */
		z2 = kft_rice_pack(frame + 0, 0, out, N, scratch);	/* too small: 0 */
		assert_int_equal(z2, 0);
		z2 = kft_rice_pack(bad, sizeof(bad), out, N, scratch);
		assert_true(z2 > 0);
		assert_int_equal(kft_rice_unpack(again, N, bad, z2, scratch), 0);
		assert_memory_equal(out, again, sizeof(out));
	}
}

/* Records [0, n) of dir/name's .kfz equal the thread file's raw ones. */
static void assert_kfz_holds(const char *dir, const char *name, const struct kft_rec *raw,
			     uint64_t n)
{
	struct kft_zcache *cache = NULL;
	struct kft_zrecs *z = NULL;
	struct kft_error err = { 0 };
	char path[512];
	uint64_t count = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(kft_zrecs_open(path, &cache, &z, &count, &err), 0);
	assert_non_null(z);
	assert_int_equal(count, n);
	for (uint64_t i = 0; i < n; i++)
		assert_memory_equal(kft_zrecs_get(z, i), &raw[i], sizeof(raw[i]));
	assert_int_equal(kft_zrecs_damaged(z), 0);
	kft_zrecs_close(z);
	kft_zcache_free(cache);
}

/* A thread file of ZN records in a new directory dir (its template
 * filled in), its records as written into raw, its .kfz's path into
 * zpath: the descriptor of dir. */
enum { ZN = 3 * KFT_ZCHUNK_RECS + 100 };

static int zwriter_fixture(char *dir, struct kft_rec *raw, char *zpath, size_t zsize)
{
	static struct kft_rec_data data[ZN];
	struct kft_thread_out t = { .session = 1, .pid = 7, .tid = 7, .comm = "t", .recs = data,
				    .nrecs = ZN };
	struct kft_thread_hdr h;
	struct kft_error err = { 0 };
	int dirfd, fd;

	for (uint32_t i = 0; i < ZN; i++)
		data[i] = (struct kft_rec_data){ .func = 0x401000 + (i % 3) * 64,
						 .call_site = 0x402000 + i % 5,
						 .entry_ns = 1000000 + (uint64_t)i * 37 - (i % 4) * 90,
						 .dur = i % 4 * 30 + 11, .depth = 3 - i % 4 };
	assert_non_null(mkdtemp(dir));
	assert_int_equal(kft_thread_write(dir, &t, &err), 0);
	dirfd = open(dir, O_RDONLY | O_DIRECTORY);
	fd = openat(dirfd, "thread-1-7-0.kft", O_RDONLY);
	assert_true(dirfd >= 0 && fd >= 0);
	assert_int_equal(pread(fd, &h, sizeof(h), 0), sizeof(h));
	assert_int_equal(pread(fd, raw, ZN * sizeof(*raw), (off_t)h.records_off),
			 ZN * sizeof(*raw));
	close(fd);
	snprintf(zpath, zsize, "%s/thread-1-7-0.kfz", dir);
	return dirfd;
}

/* A new .kfz is written in the newest codec; one an older kft began (a
 * killed run's, say) is continued in its own, and both read back. */
static void test_zwriter_keeps_codec(void **state)
{
	static struct kft_rec raw[ZN];
	struct kft_zwriter w;
	struct kft_zhdr zh;
	char dir[] = "/tmp/kft-unit-XXXXXX", zpath[512];
	const char *name = "thread-1-7-0.kft";
	int dirfd = zwriter_fixture(dir, raw, zpath, sizeof(zpath)), fd;

	(void)state;

	/* new: the newest codec, whoever writes it */
	assert_int_equal(kft_zwriter_open(&w, dirfd, name, &kft_zcodecs_rice), 0);
	assert_int_equal(w.codec, KFT_ZCODEC_RICE);
	kft_zwriter_close(&w);
	unlinkat(dirfd, "thread-1-7-0.kfz", 0);
	assert_int_equal(kft_zwriter_open(&w, dirfd, name, &kft_zcodecs_all), 0);
	assert_int_equal(w.codec, KFT_ZCODEC_RICE);
	assert_int_equal(kft_zwriter_add(&w, KFT_ZCHUNK_RECS), 0);
	assert_int_equal(kft_zwriter_add(&w, KFT_ZCHUNK_RECS), 0);
	kft_zwriter_close(&w);
	assert_kfz_holds(dir, "thread-1-7-0.kft", raw, 2 * KFT_ZCHUNK_RECS);

	/* begun by an older kft: its header says codec 1 */
	memset(&zh, 0, sizeof(zh));
	memcpy(zh.magic, KFT_ZREC_MAGIC, sizeof(KFT_ZREC_MAGIC));
	zh.version = 4;
	zh.hdr_size = sizeof(zh);
	zh.chunk_recs = KFT_ZCHUNK_RECS;
	zh.codec = KFT_ZCODEC_ZSTD_DELTA;
	fd = open(zpath, O_WRONLY | O_TRUNC);
	assert_int_equal(write(fd, &zh, sizeof(zh)), sizeof(zh));
	close(fd);
	/* the runtime writes Rice alone (libkft has no zstd): the file is
	 * left to kft record's finish, which continues it */
	errno = 0;
	assert_int_equal(kft_zwriter_open(&w, dirfd, name, &kft_zcodecs_rice), -1);
	assert_int_equal(errno, EINVAL);
	for (int round = 0; round < 2; round++) {	/* opened, and continued */
		assert_int_equal(kft_zwriter_open(&w, dirfd, name, &kft_zcodecs_all), 0);
		assert_int_equal(w.codec, KFT_ZCODEC_ZSTD_DELTA);
		assert_int_equal(w.done, (uint64_t)round * KFT_ZCHUNK_RECS);
		assert_int_equal(kft_zwriter_add(&w, KFT_ZCHUNK_RECS), 0);
		kft_zwriter_close(&w);
	}
	assert_kfz_holds(dir, "thread-1-7-0.kft", raw, 2 * KFT_ZCHUNK_RECS);

	/* a codec kft does not know is not appended to */
	zh.codec = 99;
	fd = open(zpath, O_WRONLY | O_TRUNC);
	assert_int_equal(write(fd, &zh, sizeof(zh)), sizeof(zh));
	close(fd);
	assert_int_equal(kft_zwriter_open(&w, dirfd, name, &kft_zcodecs_all), -1);
	unlinkat(dirfd, "thread-1-7-0.kfz", 0);
	unlinkat(dirfd, name, 0);
	close(dirfd);
	rmdir(dir);
}

/* Set the .kfz's resume hint to v. */
static void set_resume(const char *zpath, uint64_t v)
{
	int fd = open(zpath, O_WRONLY);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, &v, sizeof(v), offsetof(struct kft_zhdr, resume)), sizeof(v));
	close(fd);
}

/* A writer continuing a .kfz starts at the frame its header's resume hint
 * names, and where the hint does not check out (garbage, an older frame,
 * a crash's half frame after it) finds the same end by reading the frames
 * from the first. */
static void test_zwriter_resumes_at_the_hint(void **state)
{
	static struct kft_rec raw[ZN];
	struct kft_zwriter w;
	struct kft_zhdr zh;
	struct kft_zframe f;
	char dir[] = "/tmp/kft-unit-XXXXXX", zpath[512];
	const char *name = "thread-1-7-0.kft";
	uint64_t first_frame = sizeof(zh), whole;
	int dirfd = zwriter_fixture(dir, raw, zpath, sizeof(zpath)), fd;

	(void)state;

	assert_int_equal(kft_zwriter_open(&w, dirfd, name, &kft_zcodecs_all), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(kft_zwriter_add(&w, KFT_ZCHUNK_RECS), 0);
	whole = w.zlen;
	kft_zwriter_close(&w);
	/* the hint names the third frame */
	fd = open(zpath, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &zh, sizeof(zh), 0), sizeof(zh));
	assert_int_equal(pread(fd, &f, sizeof(f), (off_t)(zh.resume >> 16)), sizeof(f));
	assert_int_equal(f.first, 2 * KFT_ZCHUNK_RECS);
	assert_int_equal(zh.resume, kft_zresume_hint(zh.resume >> 16, f.first));
	/* a crash's half frame after the last whole one */
	assert_int_equal(pwrite(fd, "KFZF half", 9, (off_t)whole), 9);
	close(fd);
	for (int round = 0; round < 3; round++) {
		/* the hint; garbage; an older frame's */
		if (round == 1)
			set_resume(zpath, 12345);
		if (round == 2)
			set_resume(zpath, kft_zresume_hint(first_frame, 0));
		assert_int_equal(kft_zwriter_open(&w, dirfd, name, &kft_zcodecs_all), 0);
		assert_int_equal(w.done, 3 * KFT_ZCHUNK_RECS);
		assert_int_equal(w.zlen, whole);
		kft_zwriter_close(&w);
	}
	/* and what it goes on with reads back whole */
	assert_int_equal(kft_zwriter_open(&w, dirfd, name, &kft_zcodecs_all), 0);
	assert_int_equal(kft_zwriter_add(&w, 100), 0);
	kft_zwriter_close(&w);
	assert_kfz_holds(dir, name, raw, ZN);
	unlinkat(dirfd, "thread-1-7-0.kfz", 0);
	unlinkat(dirfd, name, 0);
	close(dirfd);
	rmdir(dir);
}

/* Where the trace's files hold what docs/kft-data.5 describes and the
 * tests read with od (programs.sh: the spare files' counters). */
static void test_control_layout(void **state)
{
	(void)state;
	assert_int_equal(offsetof(struct kft_control, spares_made), 176);
	assert_int_equal(offsetof(struct kft_control, spares_taken), 180);
	assert_int_equal(KFT_CONTROL_SIZE_OLDEST, 192);
	assert_int_equal(offsetof(struct kft_control, comp_taken_ps), 208);
	assert_int_equal(sizeof(struct kft_control), 216);
	assert_true(KFT_SPARE_SIZE % 4096 == 0);
	assert_true(KFT_RECORDS_OFF >= KFT_SITES_OFF + KFT_SITES_CAP * sizeof(struct kft_site));
}

/* The enums file: types and values found exactly, sizes sign-extended,
 * lines it cannot read passed over, names that share a prefix apart. */
static void test_enum_defs(void **state)
{
	static const char text[] = "enum color\n0 RED\n5 GREEN\n-1 NONE\n\nenum colors\n"
				   "5 FIVE\nbad line\n7\nenum ns::mode\n2 FAST\n";
	struct kft_enum_defs d;
	char *copy = strdup(text);

	(void)state;
	assert_int_equal(kft_enum_defs_parse(&d, copy), 0);
	assert_int_equal(d.n, 5);
	assert_string_equal(kft_enum_defs_name(&d, "color", 5, 5, 32), "GREEN");
	assert_string_equal(kft_enum_defs_name(&d, "colors", 6, 5, 32), "FIVE");
	assert_string_equal(kft_enum_defs_name(&d, "colorsXYZ", 6, 5, 32), "FIVE");
	assert_string_equal(kft_enum_defs_name(&d, "color", 5, 0xffffffffULL, 32), "NONE");
	assert_null(kft_enum_defs_name(&d, "color", 5, 6, 32));
	assert_null(kft_enum_defs_name(&d, "colo", 4, 5, 32));
	assert_string_equal(kft_enum_defs_name(&d, "ns::mode", 8, 2, 32), "FAST");
	assert_null(kft_enum_defs_name(NULL, "color", 5, 5, 32));
	kft_enum_defs_free(&d);
}

/* A version 3 record into buf at off: head, then the values. */
static size_t put_argrec(unsigned char *buf, size_t off, uint64_t entry_ns,
			 const struct kft_argval *v, const char *const *text, int n)
{
	struct kft_argrec_head h = { .entry_ns = entry_ns, .func = 0x1000, .sp = 0x7ff0,
				     .kind = KFT_ARGREC_CALL, .nvals = (uint8_t)n };
	size_t p = off + sizeof(h);

	for (int i = 0; i < n; i++) {
		memcpy(buf + p, &v[i], sizeof(v[i]));
		if (text[i])
			memcpy(buf + p + sizeof(v[i]), text[i], strlen(text[i]));
		p += kft_argval_next(&v[i]);
	}
	h.size = (uint16_t)(p - off);
	memcpy(buf + off, &h, sizeof(h));
	return p;
}

/* Version 3's one record a call: the arguments and, once returned, the
 * return value, each found on its own; one still to come, or none asked
 * for, adds nothing; damage is reported, a record cut at the end dropped. */
static void test_args_index_v3(void **state)
{
	struct kft_args_hdr hdr = { .version = 3, .tid = 7, .session = 2 };
	const struct kft_argval arg = { .value = (uint64_t)-5, .slot = 0, .fmt = 'd', .bits = 32 };
	const struct kft_argval pending = { .value = 64, .slot = KFT_ARGVAL_RETVAL, .fmt = 'd',
					    .str_state = KFT_ARGSTR_PENDING };
	const struct kft_argval str = { .value = 0x5000, .slot = KFT_ARGVAL_RETVAL, .fmt = 's',
					.str_state = KFT_ARGSTR_READ, .str_len = 3, .room = 64 };
	static unsigned char buf[4096];
	struct kft_argrec *v = NULL;
	size_t n = 0, cap = 0, end = 0;
	struct kft_call_args a;
	char text[64];

	(void)state;
	/* called, returned "abc" (its text in the room kept for it), with
	 * an argument after it */
	end = put_argrec(buf, end, 100, (struct kft_argval[]){ str, arg },
			 (const char *[]){ "abc", NULL }, 2);
	/* called, not returned */
	end = put_argrec(buf, end, 200, (struct kft_argval[]){ pending, arg },
			 (const char *[]){ NULL, NULL }, 2);
	/* a return value only, still to come: nothing to find */
	end = put_argrec(buf, end, 300, &pending, (const char *[]){ NULL }, 1);
	assert_int_equal(kft_args_index(&hdr, buf, end, &v, &n, &cap), 0);
	assert_int_equal(n, 3);
	kft_args_sort(v, n);
	assert_int_equal(v[0].entry_ns, 100);
	assert_int_equal(v[0].kind, KFT_ARGREC_ARGS);
	assert_int_equal(v[0].tid, 7);
	assert_int_equal(v[0].session, 2);
	assert_int_equal(v[0].sp, 0x7ff0);
	assert_int_equal(v[1].entry_ns, 100);
	assert_int_equal(v[1].kind, KFT_ARGREC_RETVAL);
	assert_int_equal(v[2].entry_ns, 200);
	assert_int_equal(v[2].kind, KFT_ARGREC_ARGS);
	a = (struct kft_call_args){ .args = &v[0], .ret = &v[1] };
	assert_string_equal(kft_args_text(&a, text, sizeof(text)), "-5");
	assert_string_equal(kft_retval_text(&a, text, sizeof(text)), "\"abc\"");
	a = (struct kft_call_args){ .args = &v[2] };
	assert_string_equal(kft_args_text(&a, text, sizeof(text)), "-5");

	/* cut at the end: dropped, those before kept */
	n = 0;
	assert_int_equal(kft_args_index(&hdr, buf, end - 8, &v, &n, &cap), 0);
	assert_int_equal(n, 3);
	/* a return value anywhere but first, a pending argument, a room not
	 * a multiple of 8, a text longer than its room: damaged */
	{
		struct kft_argval bad[] = { arg, pending };
		struct kft_argval odd = str, over = str, pend_arg = arg;

		odd.room = 12;
		over.str_len = 65;
		pend_arg.str_state = KFT_ARGSTR_PENDING;
		n = 0;
		end = put_argrec(buf, 0, 1, bad, (const char *[]){ NULL, NULL }, 2);
		assert_int_equal(kft_args_index(&hdr, buf, end, &v, &n, &cap), 1);
		end = put_argrec(buf, 0, 1, &odd, (const char *[]){ NULL }, 1);
		assert_int_equal(kft_args_index(&hdr, buf, end, &v, &n, &cap), 1);
		end = put_argrec(buf, 0, 1, &over, (const char *[]){ NULL }, 1);
		assert_int_equal(kft_args_index(&hdr, buf, end, &v, &n, &cap), 1);
		end = put_argrec(buf, 0, 1, &pend_arg, (const char *[]){ NULL }, 1);
		assert_int_equal(kft_args_index(&hdr, buf, end, &v, &n, &cap), 1);
		assert_int_equal(n, 0);
	}
	free(v);
}

/* A version 3 file of n records (entry times 10, 20, ...; a decreasing
 * one at at_wrong if not 0), as kft_args_file_open finds it: its result. */
static int args_file_of(const char *path, int n, int at_wrong, size_t cut, bool *damaged,
			struct kft_args_file *f)
{
	static unsigned char buf[1 << 20];
	const struct kft_argval arg = { .value = 0, .slot = 0, .fmt = 'd' };
	struct kft_args_hdr h = { .version = 3, .tid = 7, .session = 2 };
	size_t end = 0;
	FILE *out;
	int ret;

	memcpy(h.magic, KFT_ARGS_MAGIC, sizeof(h.magic));
	for (int i = 0; i < n; i++) {
		struct kft_argval v = arg;

		v.value = (uint64_t)i;
		end = put_argrec(buf, end, i == at_wrong && i ? 5 : 10 * (uint64_t)(i + 1), &v,
				 (const char *[]){ NULL }, 1);
	}
	h.end = end - cut;
	out = fopen(path, "w");
	assert_non_null(out);
	fwrite(&h, sizeof(h), 1, out);
	fwrite((char[KFT_ARGS_OFF]){ 0 }, KFT_ARGS_OFF - sizeof(h), 1, out);
	fwrite(buf, end - cut, 1, out);
	fclose(out);
	ret = kft_args_file_open(f, path, &h, KFT_ARGS_OFF + end - cut, damaged);
	return ret;
}

/* The record of the call at entry_ns, if found: its value, else -1. */
static long found(struct kft_args_file *f, uint64_t entry_ns)
{
	const unsigned char *rec = kft_args_file_find(f, entry_ns, 0x1000);
	struct kft_argval v;

	if (!rec)
		return -1;
	memcpy(&v, rec + sizeof(struct kft_argrec_head), sizeof(v));
	return (long)v.value;
}

/* A version 3 file read in place: calls found in entry order by reading
 * on, out of order from the mark before, absent ones not; a file out of
 * entry order is told (read as older files are); damage and a cut. */
static void test_args_file_cursor(void **state)
{
	char path[] = "/tmp/kft-test-args-XXXXXX";
	struct kft_args_file f;
	bool damaged;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	/* 5000 records: windows and marks many times over */
	assert_int_equal(args_file_of(path, 5000, 0, 0, &damaged, &f), 0);
	assert_false(damaged);
	assert_int_equal(f.nrecs, 5000);
	for (int i = 0; i < 5000; i += 7)
		assert_int_equal(found(&f, 10 * (uint64_t)(i + 1)), i);
	for (int i = 4999; i >= 0; i -= 13)	/* backwards, as exits ask */
		assert_int_equal(found(&f, 10 * (uint64_t)(i + 1)), i);
	assert_int_equal(found(&f, 15), -1);	/* between two */
	assert_int_equal(found(&f, 5), -1);	/* before all */
	assert_int_equal(found(&f, 50010), -1);	/* after all */
	assert_int_equal(found(&f, 49990), 4998);
	assert_null(kft_args_file_find(&f, 49990, 0x2000));	/* another function */
	kft_args_file_close(&f);

	assert_int_equal(args_file_of(path, 100, 40, 0, &damaged, &f), 1);
	kft_args_file_close(&f);

	/* the last record cut short: dropped, not damage */
	assert_int_equal(args_file_of(path, 100, 0, 8, &damaged, &f), 0);
	assert_false(damaged);
	assert_int_equal(f.nrecs, 99);
	assert_int_equal(found(&f, 990), 98);
	assert_int_equal(found(&f, 1000), -1);
	kft_args_file_close(&f);

	/* record 50 of 100 mangled (kind 9): damage, the 50 before kept */
	{
		struct kft_args_hdr h;
		unsigned char nine = 9;
		int fd2;

		assert_int_equal(args_file_of(path, 100, 0, 0, &damaged, &f), 0);
		kft_args_file_close(&f);
		fd2 = open(path, O_RDWR);
		assert_true(fd2 >= 0);
		assert_int_equal(pread(fd2, &h, sizeof(h), 0), sizeof(h));
		assert_int_equal(pwrite(fd2, &nine, 1, KFT_ARGS_OFF + 50 * 48 + 26), 1);
		close(fd2);
		assert_int_equal(kft_args_file_open(&f, path, &h, KFT_ARGS_OFF + 100 * 48, &damaged), 0);
		assert_true(damaged);
		assert_int_equal(f.nrecs, 50);
		assert_int_equal(found(&f, 500), 49);
		assert_int_equal(found(&f, 510), -1);
		kft_args_file_close(&f);
		/* gone before it could be read: damaged, nothing kept, no
		 * error (the rest of the trace reads) */
		unlink(path);
		assert_int_equal(kft_args_file_open(&f, path, &h, KFT_ARGS_OFF + 100 * 48, &damaged),
				 0);
		assert_true(damaged);
		assert_int_equal(f.nrecs, 0);
		assert_int_equal(found(&f, 10), -1);
		kft_args_file_close(&f);
	}
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_control_layout),
		cmocka_unit_test(test_patch_plan_block),
		cmocka_unit_test(test_dur_exact_below_2s),
		cmocka_unit_test(test_dur_long_is_close),
		cmocka_unit_test(test_dur_never_collides_with_markers),
		cmocka_unit_test(test_rec_pack_round_trip),
		cmocka_unit_test(test_zcodec_round_trip),
		cmocka_unit_test(test_enum_defs),
		cmocka_unit_test(test_args_index_v3),
		cmocka_unit_test(test_args_file_cursor),
		cmocka_unit_test(test_zwriter_keeps_codec),
		cmocka_unit_test(test_zwriter_resumes_at_the_hint),
		cmocka_unit_test(test_zcodec_made_up_frames),
		cmocka_unit_test(test_rice_damaged_frames),
		cmocka_unit_test(test_site_table),
		cmocka_unit_test(test_site_growth_edges),
		cmocka_unit_test(test_site_index_grows),
		cmocka_unit_test(test_site_index_exact),
		cmocka_unit_test(test_state_trigger_needs_prime),
		cmocka_unit_test(test_state_user_start_and_stop),
		cmocka_unit_test(test_state_new_run),
		cmocka_unit_test(test_state_autorepeat),
	};

	return cmocka_run_group_tests_name("format", tests, NULL, NULL);
}
