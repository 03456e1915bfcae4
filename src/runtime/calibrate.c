// SPDX-License-Identifier: LGPL-2.1
/*
 * How much a traced call costs: at start, run a few thousand calls of a
 * dummy function through the real hooks, into scratch buffers, with
 * everything logged. pair_ns is what one call's two hooks add to the
 * time of its caller; inside_ns is the part of it that falls between the
 * call's own two clock readings (both shown by `kft status`).
 * `kft record --compensate` makes the hooks time themselves as they run
 * (events.c), which follows what they really cost in the program, cache
 * misses and page faults included; what they cannot time of themselves,
 * the calls into them and their first and last steps, is measured here.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

#define WARMUP 256
#define BATCH 512
#define BATCHES 8
#define ROUNDS (BATCH * BATCHES)
#define UNSEEN_TRIES 5		/* --compensate's measure, taken this often */

static KFT_NOTRACE int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static KFT_NOTRACE uint32_t median(uint32_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u32);
	return v[n / 2];
}

static KFT_NOTRACE void pairs(void *fn, int n)
{
	for (int i = 0; i < n; i++) {
		__cyg_profile_func_enter(fn, fn);
		__cyg_profile_func_exit(fn, fn);
	}
}

typedef void (*hook_fn)(void *, void *);

/* The C library's hooks, which do nothing: what an instrumented program
 * pays untraced, which compensation leaves in. */
static KFT_NOTRACE __attribute__((noinline)) void nothing(void *fn, void *site)
{
	__asm__ volatile("" : : "r"(fn), "r"(site) : "memory");
}

/* A small function's work, for the hooks to run around. */
static KFT_NOTRACE __attribute__((noinline)) long body(long x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 3 + 1;
}

/* BATCH calls of a small function through hooks enter and leave, called
 * as a program calls them; the time they took. */
static KFT_NOTRACE uint64_t calls(hook_fn enter, hook_fn leave, void *fn)
{
	hook_fn volatile e = enter, l = leave;
	uint64_t t0 = kft_now();
	long x = 0;

	for (int i = 0; i < BATCH; i++) {
		e(fn, fn);
		x = body(x);
		l(fn, fn);
	}
	__asm__ volatile("" : : "r"(x));
	return kft_now() - t0;
}

/*
 * --compensate: what a pair of hooks adds to the program's time and does
 * not see of itself (in 1/256 ns): the same calls through kft's hooks,
 * timing themselves under one outer call, and through hooks that do
 * nothing. The least disturbed batch of each tells it best.
 */
static KFT_NOTRACE uint64_t unseen_pair(void *fn, void *outer, const struct kft_frame *top)
{
	hook_fn noop_enter = dlsym(RTLD_NEXT, "__cyg_profile_func_enter");
	hook_fn noop_leave = dlsym(RTLD_NEXT, "__cyg_profile_func_exit");
	uint64_t best = UINT64_MAX, best_seen = 0, untraced = UINT64_MAX;

	if (!noop_enter || !noop_leave)
		noop_enter = noop_leave = nothing;
	for (int b = 0; b < BATCHES; b++) {
		uint64_t seen, t;

		__cyg_profile_func_enter(outer, outer);
		seen = top->below;
		t = calls(__cyg_profile_func_enter, __cyg_profile_func_exit, fn);
		seen = top->below - seen;
		__cyg_profile_func_exit(outer, outer);
		if (t < best) {
			best = t;
			best_seen = seen;
		}
		t = calls(noop_enter, noop_leave, fn);
		if (t < untraced)
			untraced = t;
	}
	best = (best > untraced ? best - untraced : 0) << KFT_BELOW_SHIFT;
	return best > best_seen ? (best - best_seen) / BATCH : 0;
}

/* The least disturbed of BATCHES batches of BATCH empty calls, each
 * batch under one call of outer if there is one: its time. */
static KFT_NOTRACE uint64_t best_batch(void *fn, void *outer)
{
	uint64_t best = UINT64_MAX;

	for (int b = 0; b < BATCHES; b++) {
		uint64_t t0, t;

		if (outer)
			__cyg_profile_func_enter(outer, outer);
		t0 = kft_now();
		pairs(fn, BATCH);
		t = kft_now() - t0;
		if (outer)
			__cyg_profile_func_exit(outer, outer);
		if (t < best)
			best = t;
	}
	return best;
}

/* The median duration of the empty calls of BATCHES batches logged from
 * record first on, stride records from one batch to the next. */
static KFT_NOTRACE uint32_t batch_median(const struct kft_rec *recs, size_t first,
					 size_t stride, uint32_t *durs)
{
	for (int b = 0; b < BATCHES; b++)
		for (int i = 0; i < BATCH; i++)
			durs[b * BATCH + i] = recs[first + (size_t)b * stride + (size_t)i].dur;
	return median(durs, ROUNDS);
}

KFT_NOTRACE void kft_calibrate(bool compensate)
{
	/* --compensate's own measures log more rounds, each batch under an
	 * outer call */
	size_t nrecs = WARMUP + ROUNDS +
		       (compensate ? (1 + UNSEEN_TRIES) * BATCHES * (BATCH + 1) : 0);
	struct kft_runtime saved_rt = kft_rt;
	struct kft_tls saved_tls = kft_tls;
	struct kft_control ctl;
	struct kft_thread_hdr hdr;
	struct kft_frame frames[4];
	struct kft_rec *recs = calloc(nrecs, sizeof(*recs));
	struct kft_site sites[4];
	uint32_t site_index[8] = { 0 };
	uint32_t *durs = calloc(ROUNDS, sizeof(*durs));
	void *fn = (void *)kft_calibrate, *outer = (void *)pairs;
	uint32_t tries[UNSEEN_TRIES];
	uint64_t best, unseen;

	if (!recs || !durs)
		goto out;
	/* fault the pages in now, not inside the timed loops */
	memset(recs, 0xff, nrecs * sizeof(*recs));
	memset(&ctl, 0, sizeof(ctl));
	memset(&hdr, 0, sizeof(hdr));
	hdr.capacity = nrecs;
	ctl.state = KFT_STATE_PRIMED | KFT_STATE_TRIGGERED;
	/* the logging path, whatever the config filters */
	kft_rt.ctl = &ctl;
	kft_rt.max_records = nrecs;
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
	kft_tls.frames_cap = sizeof(frames) / sizeof(frames[0]);
	kft_tls.recs = recs;
	kft_tls.sites.sites = sites;
	kft_tls.sites.index = site_index;
	kft_tls.sites.nsites = &hdr.nsites;
	kft_tls.sites.cap = 4;
	kft_tls.sites.nslots = 8;
	pairs(fn, WARMUP);
	best = best_batch(fn, NULL);
	if (hdr.head != WARMUP + ROUNDS)
		goto out;
	saved_rt.pair_ns = best / BATCH;
	saved_rt.inside_ns = batch_median(recs, WARMUP, BATCH, durs);
	if (saved_rt.inside_ns > saved_rt.pair_ns)
		saved_rt.inside_ns = saved_rt.pair_ns;
	if (!compensate)
		goto out;
	/* the hooks as --compensate runs them, timing themselves: an empty
	 * call's time, less what its hooks saw, is what they did not */
	kft_rt.compensate = true;
	kft_rt.unseen_pair = kft_rt.unseen_inside_ns = 0;
	(void)best_batch(fn, outer);	/* for its calls' records */
	/* a few times, the median: another thread busy for a moment (kft
	 * record's, making files at the start) can disturb a whole try */
	for (int i = 0; i < UNSEEN_TRIES; i++)
		tries[i] = (uint32_t)unseen_pair(fn, outer, &frames[0]);
	unseen = median(tries, UNSEEN_TRIES);
	if (hdr.head != nrecs)
		goto out;
	saved_rt.unseen_inside_ns = batch_median(recs, WARMUP + ROUNDS, BATCH + 1, durs);
	saved_rt.unseen_pair = unseen;
out:
	kft_rt = saved_rt;
	kft_tls = saved_tls;
	free(recs);
	free(durs);
}
