// SPDX-License-Identifier: LGPL-2.1
/*
 * Per-call work. Entry pushes a frame on the thread's shadow stack (which
 * lives in the thread's mapped file, so a crash leaves it readable); exit
 * pops it, decides with the duration in hand whether the call is kept,
 * and writes one record. No lock, no allocation, no system call: the
 * clock is read through the vDSO.
 *
 * Log capacity works as in KFT, where a slot was taken at entry: a logged
 * call reserves its slot when it starts, so the calls still open when the
 * run stops always have room for their "-1" record. The log grows as it
 * fills (thread.c); only a cap (logentries, --max-size) or a file that
 * cannot grow makes it full.
 */
#include <sched.h>

#include "../format/control.h"
#include "runtime.h"

#include "events-hot.h"

static inline KFT_NOTRACE bool waiting(uint64_t st)
{
	return (st & (KFT_STATE_PRIMED | KFT_STATE_TRIGGERED | KFT_STATE_COMPLETE)) ==
	       KFT_STATE_PRIMED;
}

static KFT_NOTRACE bool trigger_matches(const struct rt_trigger *trig,
					enum kft_trigger_type type, uint64_t fn)
{
	if (trig->type != type)
		return false;
	for (size_t i = 0; i < trig->naddrs; i++)
		if (trig->addrs[i] == fn)
			return true;
	return false;
}

/* Test the start trigger against one event; returns the state after it. */
static KFT_NOTRACE uint64_t test_start(enum kft_trigger_type type, uint64_t fn, uint64_t now,
				       uint64_t st)
{
	const struct rt_trigger *trig = &kft_rt.start;
	uint32_t how = trig->type;

	if (trig->type == KFT_TRIGGER_NONE) {
		how = type;	/* no start trigger: the first event starts the run */
	} else if (trig->type == KFT_TRIGGER_TIME) {
		if (now < trig->ns)
			return st;
	} else if (!trigger_matches(trig, type, fn)) {
		return st;
	}
	kft_control_start(kft_rt.ctl, how, now, how == KFT_TRIGGER_TIME ? 0 : fn, kft_rt.session,
			  trig->ns / 1000);
	return load_state();
}

static KFT_NOTRACE void test_stop(enum kft_trigger_type type, uint64_t fn, uint64_t now)
{
	const struct rt_trigger *trig = &kft_rt.stop;

	if (trig->type == KFT_TRIGGER_TIME) {
		if (now - kft_rt.ctl->start.mark_ns < trig->ns)
			return;
	} else if (!trigger_matches(trig, type, fn)) {
		return;
	}
	kft_control_stop(kft_rt.ctl, trig->type, now, trig->type == KFT_TRIGGER_TIME ? 0 : fn,
			 kft_rt.session, trig->ns / 1000);
}

static KFT_NOTRACE bool in_list(const uint64_t *list, size_t n, uint64_t fn)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (list[mid] == fn)
			return true;
		if (list[mid] < fn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/*
 * filter graph and filter depth: whether a call at depth is left out.
 * Its frame's flags get the graph flag and its level below the graph
 * function, which its callees build on (so a longjmp or a signal handler
 * needs no bookkeeping).
 */
HOT_STEP bool selected_out(const struct kft_tls *t, uint64_t fn, uint64_t depth, uint32_t *flags)
{
	uint64_t level = depth;

	if (kft_rt.has_graph) {
		const struct kft_frame *up = depth && depth <= t->frames_cap ? &t->frames[depth - 1]
									   : NULL;

		if (up && (up->flags & KFT_FRAME_IN_GRAPH))
			level = (up->flags >> KFT_FRAME_LEVEL_SHIFT) + 1;
		else if (in_list(kft_rt.graph, kft_rt.ngraph, fn))
			level = 0;
		else
			return true;	/* inside no graph function */
		*flags |= KFT_FRAME_IN_GRAPH |
			  (uint32_t)(level < 0xffff ? level : 0xffff) << KFT_FRAME_LEVEL_SHIFT;
	}
	return kft_rt.max_depth && level >= kft_rt.max_depth;
}

/* The context filters, in KFT's order, then ftrace's notrace. Returns
 * true if the call is dropped. */
HOT_STEP bool filtered_at_entry(struct kft_thread_hdr *h, uint64_t fn, bool in_signal)
{
	if (kft_rt.has_funclist && !in_list(kft_rt.funcs, kft_rt.nfuncs, fn)) {
		h->counters.funclist_filtered++;
		return true;
	}
	if (kft_rt.nnotrace && in_list(kft_rt.notrace, kft_rt.nnotrace, fn)) {
		h->counters.funclist_filtered++;
		return true;
	}
	if (kft_rt.cfg.noints && in_signal) {
		h->counters.noints_filtered++;
		return true;
	}
	if (kft_rt.cfg.onlyints && !in_signal) {
		h->counters.onlyints_filtered++;
		return true;
	}
	/* tracing_cpumask: where the call is entered (glibc reads the CPU
	 * from its rseq area, no system call) */
	if (kft_rt.cfg.cpus_set && !kft_config_cpu_in(&kft_rt.cfg, (unsigned int)sched_getcpu())) {
		h->cpus_filtered++;
		return true;
	}
	return false;
}

/* Take n slots of the log, growing it if need be; false (and the run
 * stops) when it is full. The log may move: reload t->hdr after. */
HOT_STEP bool reserve(struct kft_tls *t, uint64_t n, uint64_t now, uint64_t fn)
{
	struct kft_thread_hdr *h = t->hdr;

	if (kft_rt.overwrite)
		return true;
	if (likely(h->reserved + n <= h->capacity) || !kft_thread_grow_log(t, n)) {
		t->hdr->reserved += n;
		return true;
	}
	h->counters.log_full++;
	__atomic_store_n(&kft_rt.ctl->log_filled, 1, __ATOMIC_RELEASE);	/* before the stop */
	kft_control_stop(kft_rt.ctl, KFT_HOW_LOG_FULL, now, fn, kft_rt.session, 0);
	return false;
}

/* After a full log stopped the run, each call is one the log lost. */
static KFT_NOTRACE void count_lost(struct kft_thread_hdr *h)
{
	if (kft_log_filled())
		h->counters.log_full++;
}

/*
 * Log the current call chain with duration -2, outermost call first.
 * `watch stack` logs it whole. `watch worst-stack` logs only the calls not
 * already in the chain it logged last (a frame not popped since keeps its
 * mark): a row at depth d takes the place of that chain's rows from d on,
 * so a recursion 1000 deep costs 1000 rows, not half a million.
 */
static KFT_NOTRACE void watch_fire(struct kft_tls *t, uint64_t depth, uint64_t now)
{
	struct kft_thread_hdr *h = t->hdr;
	uint64_t n = depth < t->frames_cap ? depth : t->frames_cap, first = 0;
	bool worst = kft_rt.cfg.watch == KFT_WATCH_WORST_STACK;

	h->counters.watch_hits++;
	while (worst && first < n && (t->frames[first].flags & KFT_FRAME_WATCHED))
		first++;
	if (first == n || !reserve(t, n - first, now, t->frames[n - 1].func))
		return;
	for (uint64_t i = first; i < n; i++) {
		put_record(t, &t->frames[i], i, KFT_DUR_WATCH, 0);
		if (worst)
			t->frames[i].flags |= KFT_FRAME_WATCHED;
	}
}

/*
 * In a fork child, before its first call: a row (KFT_DUR_INHERITED) for
 * each of frames [0, n) that its parent logged, outermost first, so that
 * views can draw the child's calls inside them. The child ends them
 * unlogged: they are the parent's calls, and counted there.
 */
KFT_NOTRACE void kft_log_inherited(struct kft_tls *t, uint64_t n)
{
	uint64_t k = 0;

	for (uint64_t i = 0; i < n; i++)
		k += !!(t->frames[i].flags & KFT_FRAME_LOGGED);
	if (!k || !reserve(t, k, kft_now(), t->frames[n - 1].func))
		return;
	for (uint64_t i = 0; i < n; i++)
		if (t->frames[i].flags & KFT_FRAME_LOGGED)
			put_record(t, &t->frames[i], i, KFT_DUR_INHERITED, 0);
}

static KFT_NOTRACE void watch_check(struct kft_tls *t, uintptr_t sp, uint64_t depth, uint64_t now)
{
	if (!running(load_state()))
		return;
	if (kft_rt.cfg.watch == KFT_WATCH_WORST_STACK) {
		t->watch_sp = sp;	/* the threshold follows each new deepest point */
		kft_set_sp_floor(t);
	} else {
		if (t->watch_rearm_depth)
			return;
		t->watch_rearm_depth = depth;
	}
	watch_fire(t, depth, now);
}

/* End one frame that was popped: keep it or drop it, as the run says. */
HOT_STEP void finish_frame(struct kft_tls *t, const struct kft_frame *f, uint64_t depth,
			   uint64_t now, uint64_t st, uint32_t rec_flags)
{
	struct kft_thread_hdr *h = t->hdr;
	uint64_t dur;

	if (!(f->flags & KFT_FRAME_LOGGED)) {
		if (running(st) && !(f->flags & KFT_FRAME_FILTERED))
			h->counters.not_found++;
		return;
	}
	if (f->gen != gen_of(st)) {
		/* the run stopped while this call was open: KFT's -1 */
		put_record(t, f, depth, KFT_DUR_UNFINISHED, rec_flags);
		return;
	}
	dur = now - f->entry_ns;
	if (kft_hooks_timed) {
		/* less the hooks that ran since this call's entry hook began,
		 * its own included (hooks.c); a call that ran took some time */
		uint64_t cost = kft_hook_ns(t->hook_ticks - f->hook_ticks);

		dur = dur > cost ? dur - cost : 1;
	}
	if ((kft_rt.mintime_ns && dur < kft_rt.mintime_ns) ||
	    (kft_rt.maxtime_ns && dur > kft_rt.maxtime_ns)) {
		h->counters.time_filtered++;
		if (!kft_rt.overwrite)
			h->reserved--;
		return;
	}
	put_record(t, f, depth, kft_dur_encode(dur), rec_flags);
}

/* Entry, every case (the hooks take events-hot.h's common path first). */
KFT_NOTRACE __attribute__((noinline)) void kft_entry_general(struct kft_tls *t, uint64_t fn,
							      uint64_t call_site, uintptr_t sp,
							      uint64_t now)
{
	struct kft_thread_hdr *h = t->hdr;
	uint64_t depth = h->depth;
	uint64_t st = load_state();
	bool in_signal = t->in_signal > 0;
	uint32_t flags = in_signal ? KFT_FRAME_SIGNAL : 0;
	uint32_t gen;
	bool out;

	/* a longjmp left frames behind: the new call's sp is above them (an
	 * inlined function's hooks run at its caller's sp: equal is no sign) */
	if (unlikely(frames_left_below(t, sp) && !in_signal)) {
		kft_unwind_to(t, sp);
		depth = h->depth;
	}
	if (unlikely(waiting(st)))
		st = test_start(KFT_TRIGGER_ENTRY, fn, now, st);
	gen = gen_of(st);
	/* (the graph flag is kept whether the run is on or not, for the
	 * callees of a graph function entered before the start) */
	out = (kft_rt.has_graph || kft_rt.max_depth) && selected_out(t, fn, depth, &flags);
	if (likely(running(st))) {
		if (unlikely(out)) {
			h->counters.funclist_filtered++;
			flags |= KFT_FRAME_FILTERED;
		} else if (filtered_at_entry(h, fn, in_signal)) {
			flags |= KFT_FRAME_FILTERED;
		} else if (reserve(t, 1, now, fn)) {
			flags |= KFT_FRAME_LOGGED;
		}
		h = t->hdr;
		if (kft_rt.stop.type != KFT_TRIGGER_NONE)
			test_stop(KFT_TRIGGER_ENTRY, fn, now);
	} else if (st & KFT_STATE_COMPLETE) {
		count_lost(h);
	} else if (st & KFT_STATE_PAUSED) {
		flags |= KFT_FRAME_FILTERED;	/* not logged, and no loss */
	}
	if (likely(depth < t->frames_cap ||
		   (depth == t->frames_cap && kft_thread_more_frames(t)))) {
		struct kft_frame *f = &t->frames[depth];

		f->func = fn;
		f->call_site = call_site;
		f->entry_ns = now;
		f->sp = sp;
		f->flags = flags;
		f->gen = gen;
		f->hook_ticks = t->hook_ticks;
	} else {
		h->counters.depth_overflow++;
		if ((flags & KFT_FRAME_LOGGED) && !kft_rt.overwrite)
			h->reserved--;
	}
	barrier();
	kft_set_depth(t, depth + 1);

	if (unlikely(sp < t->lowest_sp)) {
		t->lowest_sp = sp;
		kft_set_sp_floor(t);
		if (h->stack_base > sp)
			h->max_stack = h->stack_base - sp;
	}
	if (unlikely(sp < t->watch_sp) && depth < t->frames_cap)
		watch_check(t, sp, depth + 1, now);
}

/* Exit, every case. */
KFT_NOTRACE __attribute__((noinline)) void kft_exit_general(struct kft_tls *t, uint64_t fn,
							     uintptr_t sp, uint64_t now)
{
	struct kft_thread_hdr *h = t->hdr;
	uint64_t depth = h->depth;
	struct kft_frame frame;
	uint64_t st;

	if (unlikely(!depth)) {
		if (running(load_state()))
			h->counters.not_found++;
		return;
	}
	if (unlikely(depth > t->frames_cap)) {
		kft_set_depth(t, depth - 1);
		return;
	}
	if (unlikely(t->frames[depth - 1].func != fn)) {
		/* frames above ours were left by longjmp: close them first */
		kft_unwind_to(t, sp);
		depth = h->depth;
		if (!depth || t->frames[depth - 1].func != fn) {
			if (running(load_state()))
				h->counters.not_found++;
			return;
		}
	}
	frame = t->frames[depth - 1];
	kft_set_depth(t, depth - 1);
	if (t->watch_rearm_depth > depth - 1)
		t->watch_rearm_depth = 0;

	st = load_state();
	if (unlikely(waiting(st)))
		st = test_start(KFT_TRIGGER_EXIT, fn, now, st);
	finish_frame(t, &frame, depth - 1, now, st, 0);
	if (running(st) && kft_rt.stop.type != KFT_TRIGGER_NONE)
		test_stop(KFT_TRIGGER_EXIT, fn, now);
}

KFT_NOTRACE void kft_unwind_to(struct kft_tls *t, uintptr_t sp)
{
	struct kft_thread_hdr *h = t->hdr;
	uint64_t depth = h->depth, now, st;

	if (depth > t->frames_cap)
		return;
	/* every -pg return asks: the clock only when a frame is left behind */
	if (!frames_left_below(t, sp))
		goto done;
	now = kft_now();
	st = load_state();
	while (depth && t->frames[depth - 1].sp < sp) {
		struct kft_frame frame = t->frames[depth - 1];

		kft_set_depth(t, --depth);
		h->counters.unwound++;
		finish_frame(t, &frame, depth, now, st, KFT_REC_UNWOUND);
	}
done:
	if (t->watch_rearm_depth > depth)
		t->watch_rearm_depth = 0;
}
