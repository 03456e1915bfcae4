// SPDX-License-Identifier: LGPL-2.1
/*
 * How much a traced call costs: at start, run a few thousand calls of a
 * dummy function through the real hooks, into scratch buffers, with
 * everything logged. pair_ns is what one call's two hooks add to the
 * time of its caller; inside_ns is the part of it that falls between the
 * call's own two clock readings (both shown by `kft status`).
 * `kft record --compensate` does not use them: its hooks time themselves
 * as they run (hooks.c), from their first instruction to their last.
 * What that leaves in a call's time besides the program's own work is
 * the calls into the hooks and back, and the share of the clock's two
 * readings that falls outside them: the former the program also pays
 * untraced (into the C library's hooks, which do nothing), the latter
 * not. That excess is measured here (unseen_gap), a few times: how far
 * the tries spread, and what compensation took off the calls it timed,
 * go to the control file for the views to say how far a compensated
 * figure can be trusted.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../common/populate.h"
#include "runtime.h"

#define WARMUP 256
#define BATCH 512
#define BATCHES 8
#define ROUNDS (BATCH * BATCHES)
#define GAP_TRIES 5		/* --compensate's measure, taken this often */

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

/* The C library's hooks, which do nothing, if it has none. */
static KFT_NOTRACE __attribute__((noinline)) void nothing(void *fn, void *site)
{
	__asm__ volatile("" : : "r"(fn), "r"(site) : "memory");
}

/* The hooks as the recursive code below calls them (not static: the
 * assembly names them). */
hook_fn volatile kft_tree_enter KFT_HIDDEN, kft_tree_leave KFT_HIDDEN;

#if defined(__x86_64__)
/* Called as an instrumented program calls its hooks: a direct call, and
 * a jump through a pointer (as its PLT does). */
void kft_tree_enter_plt(void *fn, void *site) KFT_HIDDEN;
void kft_tree_leave_plt(void *fn, void *site) KFT_HIDDEN;
__asm__(".text\n"
	".globl kft_tree_enter_plt\n"
	".hidden kft_tree_enter_plt\n"
	"kft_tree_enter_plt: jmp *kft_tree_enter(%rip)\n"
	".globl kft_tree_leave_plt\n"
	".hidden kft_tree_leave_plt\n"
	"kft_tree_leave_plt: jmp *kft_tree_leave(%rip)\n");
#define TREE_ENTER kft_tree_enter_plt
#define TREE_LEAVE kft_tree_leave_plt
#else
#define TREE_ENTER kft_tree_enter
#define TREE_LEAVE kft_tree_leave
#endif

/* Hot recursive code, the kind whose calls are shortest next to their
 * hooks: TREE_CALLS calls of a few instructions each. */
#define TREE_N 14
#define TREE_CALLS 1219		/* 2 fib(TREE_N + 1) - 1 */
static KFT_NOTRACE __attribute__((noinline)) long tree(int n)
{
	long r;

	TREE_ENTER((void *)tree, __builtin_return_address(0));
	r = n < 2 ? n : tree(n - 1) + tree(n - 2);
	TREE_LEAVE((void *)tree, __builtin_return_address(0));
	return r;
}

static KFT_NOTRACE int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * --compensate: the time each stretch of program between two hooks holds
 * that the program run untraced does not (ns): recursive calls under an
 * outer call through the timing hooks, the outer call's compensated
 * duration (2 TREE_CALLS + 1 stretches), against the same calls through
 * hooks that do nothing. The hooks write fresh log pages as in a run: a
 * typical batch of theirs (the median) tells it; of the hooks that do
 * nothing, the least disturbed. *taken: what the hooks' own timing took
 * off the outer call, per call under it (ns).
 */
static KFT_NOTRACE double gap_excess_ns(void *outer, const struct kft_thread_hdr *hdr,
					const struct kft_rec *recs, double *taken)
{
	hook_fn noop_enter = dlsym(RTLD_NEXT, "__cyg_profile_func_enter");
	hook_fn noop_leave = dlsym(RTLD_NEXT, "__cyg_profile_func_exit");
	double timed[BATCHES], lost[BATCHES], untimed = 0, t;

	if (!noop_enter || !noop_leave)
		noop_enter = noop_leave = nothing;
	for (int b = 0; b < BATCHES; b++) {
		uint64_t t0;

		kft_tree_enter = __cyg_profile_func_enter;
		kft_tree_leave = __cyg_profile_func_exit;
		t0 = kft_now();
		__cyg_profile_func_enter(outer, outer);
		(void)tree(TREE_N);
		__cyg_profile_func_exit(outer, outer);
		t = (double)(kft_now() - t0);
		/* the outer call's record, the last one */
		timed[b] = (double)kft_dur_decode(recs[hdr->head - 1].dur);
		lost[b] = t > timed[b] ? t - timed[b] : 0;
		kft_tree_enter = noop_enter;
		kft_tree_leave = noop_leave;
		t0 = kft_now();
		(void)tree(TREE_N);
		t = (double)(kft_now() - t0);
		if (!b || t < untimed)
			untimed = t;
	}
	qsort(timed, BATCHES, sizeof(timed[0]), cmp_double);
	qsort(lost, BATCHES, sizeof(lost[0]), cmp_double);
	*taken = lost[BATCHES / 2] / TREE_CALLS;
	t = timed[BATCHES / 2] - untimed;
	return t > 0 ? t / (2 * TREE_CALLS + 1) : 0;
}

/* The least disturbed of BATCHES batches of BATCH empty calls: its time. */
static KFT_NOTRACE uint64_t best_batch(void *fn)
{
	uint64_t best = UINT64_MAX;

	for (int b = 0; b < BATCHES; b++) {
		uint64_t t0, t;

		t0 = kft_now();
		pairs(fn, BATCH);
		t = kft_now() - t0;
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

/* Room for records; for --compensate as a thread's log is: a file in the
 * trace's directory, mapped shared, whose pages the hooks are the first
 * to write (and take the file system's page faults for, as in a run). */
static KFT_NOTRACE void *log_room(size_t size, bool log_like)
{
	int fd = log_like ? openat(kft_dir(), ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600) : -1;
	void *p = MAP_FAILED;

	if (fd >= 0 && !ftruncate(fd, (off_t)size)) {
		if (!kft_rt.no_fallocate)
			(void)fallocate(fd, 0, 0, (off_t)size);
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	}
	if (fd >= 0)
		close(fd);
	if (p == MAP_FAILED)
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

KFT_NOTRACE void kft_calibrate(bool compensate)
{
	/* --compensate's own measure logs more */
	size_t nrecs = WARMUP + ROUNDS + 1 +
		       (compensate ? GAP_TRIES * BATCHES * (TREE_CALLS + 1) : 0);
	struct kft_runtime saved_rt = kft_rt;
	struct kft_tls saved_tls = kft_tls;
	struct kft_control ctl;
	struct kft_thread_hdr hdr;
	struct kft_frame frames[TREE_N + 4];	/* tree() nests TREE_N + 2 deep */
	struct kft_rec *recs = log_room(nrecs * sizeof(*recs), compensate);
	struct kft_site sites[8];
	struct kft_site_slot site_index[16] = { { 0, 0, 0 } };
	uint32_t *durs = calloc(ROUNDS, sizeof(*durs));
	void *fn = (void *)kft_calibrate, *outer = (void *)pairs;
	double tries[GAP_TRIES], taken[GAP_TRIES], gap_ns;
	uint64_t best;

	if (!recs || !durs)
		goto out;
	/* the empty calls' pages faulted in now, not inside their loops
	 * (at once where the kernel can, else a page at a time by the
	 * stores); --compensate's are left to its hooks */
	kft_populate(recs, (WARMUP + ROUNDS + 1) * sizeof(*recs), MADV_POPULATE_WRITE);
	memset(recs, 0xff, (WARMUP + ROUNDS + 1) * sizeof(*recs));
	memset(&ctl, 0, sizeof(ctl));
	memset(&hdr, 0, sizeof(hdr));
	hdr.capacity = nrecs;
	ctl.state = KFT_STATE_PRIMED | KFT_STATE_TRIGGERED;
	/* the logging path, whatever the config filters */
	kft_rt.ctl = &ctl;
	kft_rt.max_records = nrecs;
	kft_rt.overwrite = false;
	kft_rt.has_funclist = false;
	kft_rt.mintime_ns = kft_rt.maxtime_ns = 0;
	kft_rt.cfg.noints = kft_rt.cfg.onlyints = kft_rt.cfg.cpus_set = false;
	kft_rt.start.type = kft_rt.stop.type = KFT_TRIGGER_NONE;
	kft_rt.plain = false;
	memset(&kft_tls, 0, sizeof(kft_tls));
	kft_tls.hdr = &hdr;
	kft_tls.frames = frames;
	kft_tls.frames_cap = sizeof(frames) / sizeof(frames[0]);
	kft_tls.recs = recs;
	kft_tls.rec_mask = ~(uint64_t)0;
	kft_tls.sites.sites = sites;
	kft_tls.sites.index = site_index;
	kft_tls.sites.nsites = &hdr.nsites;
	kft_tls.sites.cap = 8;
	kft_tls.sites.nslots = 16;
	/* the hooks' short path, as a plain run takes it: inside a call, as
	 * a program's calls are (the outermost one goes the whole way) */
	kft_rt.plain = kft_clock.use_tsc;
	kft_rt.time_span = UINT64_MAX;
	__cyg_profile_func_enter(outer, outer);
	pairs(fn, WARMUP);
	best = best_batch(fn);
	__cyg_profile_func_exit(outer, outer);
	kft_rt.plain = false;	/* --compensate's hooks go the whole way */
	if (hdr.head != WARMUP + ROUNDS + 1)
		goto out;
	saved_rt.pair_ns = best / BATCH;
	saved_rt.inside_ns = batch_median(recs, WARMUP, BATCH, durs);
	if (saved_rt.inside_ns > saved_rt.pair_ns)
		saved_rt.inside_ns = saved_rt.pair_ns;
	if (!compensate)
		goto out;
	/* a few times, the median: another thread busy for a moment (kft
	 * record's, making files at the start) can disturb a whole try */
	kft_hooks_timed = 1;
	for (int i = 0; i < GAP_TRIES; i++)
		tries[i] = gap_excess_ns(outer, &hdr, recs, &taken[i]);
	kft_hooks_timed = 0;
	qsort(tries, GAP_TRIES, sizeof(tries[0]), cmp_double);
	qsort(taken, GAP_TRIES, sizeof(taken[0]), cmp_double);
	gap_ns = tries[GAP_TRIES / 2];
	if (hdr.head != nrecs)
		goto out;
	saved_rt.gap_ps = (uint64_t)(gap_ns * 1000 + 0.5);
	saved_rt.gap_spread_ps = (uint64_t)((tries[GAP_TRIES - 1] - tries[0]) * 500 + 0.5);
	saved_rt.taken_ps = (uint64_t)(taken[GAP_TRIES / 2] * 1000 + 0.5);
	/* in 1/256 tick */
	if (kft_clock.use_tsc)
		saved_rt.unseen_gap = (uint64_t)(gap_ns * 4294967296.0 * (1 << KFT_HOOK_SHIFT) /
						 (double)kft_clock.mult);
	else
		saved_rt.unseen_gap = (uint64_t)(gap_ns * (1 << KFT_HOOK_SHIFT));
out:
	kft_rt = saved_rt;
	kft_tls = saved_tls;
	if (recs)
		munmap(recs, nrecs * sizeof(*recs));
	free(durs);
}
