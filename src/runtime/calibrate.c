// SPDX-License-Identifier: LGPL-2.1
/*
 * How much a traced call costs: at start, run a few thousand calls of a
 * dummy function through the real hooks, into scratch buffers, with
 * everything logged. pair_ns is what one call's two hooks add to the
 * time of its caller; inside_ns is the part of it that falls between the
 * call's own two clock readings. `kft record --compensate` takes both out
 * of every duration: inside_ns once, pair_ns once for each call made under
 * it (counted on the shadow stack, filtered ones included).
 */
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

#define WARMUP 256
#define BATCH 512
#define BATCHES 8
#define ROUNDS (BATCH * BATCHES)

static KFT_NOTRACE int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

KFT_NOTRACE void kft_calibrate(void)
{
	struct kft_runtime saved_rt = kft_rt;
	struct kft_tls saved_tls = kft_tls;
	struct kft_control ctl;
	struct kft_thread_hdr hdr;
	struct kft_frame frames[4];
	struct kft_rec *recs = calloc(WARMUP + ROUNDS, sizeof(*recs));
	struct kft_site sites[2];
	uint32_t site_index[4] = { 0 };
	uint32_t *durs = calloc(ROUNDS, sizeof(*durs));
	void *fn = (void *)kft_calibrate;
	uint64_t best = UINT64_MAX;

	if (!recs || !durs)
		goto out;
	/* fault the pages in now, not inside the timed loops */
	memset(recs, 0xff, (WARMUP + ROUNDS) * sizeof(*recs));
	memset(&ctl, 0, sizeof(ctl));
	memset(&hdr, 0, sizeof(hdr));
	hdr.capacity = WARMUP + ROUNDS;
	ctl.state = KFT_STATE_PRIMED | KFT_STATE_TRIGGERED;
	/* the logging path, whatever the config filters */
	kft_rt.ctl = &ctl;
	kft_rt.max_records = WARMUP + ROUNDS;
	kft_rt.overwrite = false;
	kft_rt.compensate = false;
	kft_rt.has_funclist = false;
	kft_rt.mintime_ns = kft_rt.maxtime_ns = 0;
	kft_rt.cfg.noints = kft_rt.cfg.onlyints = false;
	kft_rt.start.type = kft_rt.stop.type = KFT_TRIGGER_NONE;
	/* the cost is taken out only with --compensate, whose hooks take the
	 * general path: measure that one */
	kft_rt.plain = false;
	memset(&kft_tls, 0, sizeof(kft_tls));
	kft_tls.hdr = &hdr;
	kft_tls.frames = frames;
	kft_tls.recs = recs;
	kft_tls.sites.sites = sites;
	kft_tls.sites.index = site_index;
	kft_tls.sites.nsites = &hdr.nsites;
	kft_tls.sites.cap = 2;
	kft_tls.sites.nslots = 4;
	for (int i = 0; i < WARMUP; i++) {
		__cyg_profile_func_enter(fn, fn);
		__cyg_profile_func_exit(fn, fn);
	}
	/* the least disturbed batch tells the cost best */
	for (int b = 0; b < BATCHES; b++) {
		uint64_t t0 = kft_now(), t;

		for (int i = 0; i < BATCH; i++) {
			__cyg_profile_func_enter(fn, fn);
			__cyg_profile_func_exit(fn, fn);
		}
		t = kft_now() - t0;
		if (t < best)
			best = t;
	}
	if (hdr.head != WARMUP + ROUNDS)
		goto out;
	for (int i = 0; i < ROUNDS; i++)
		durs[i] = recs[WARMUP + i].dur;
	qsort(durs, ROUNDS, sizeof(*durs), cmp_u32);
	saved_rt.pair_ns = best / BATCH;
	saved_rt.inside_ns = durs[ROUNDS / 2];
	if (saved_rt.inside_ns > saved_rt.pair_ns)
		saved_rt.inside_ns = saved_rt.pair_ns;
out:
	kft_rt = saved_rt;
	kft_tls = saved_tls;
	free(recs);
	free(durs);
}
