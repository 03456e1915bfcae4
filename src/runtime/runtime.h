/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libkft internals. The hot path is events.c; everything else runs once
 * per process, thread, fork, dlopen or signal handler.
 */
#ifndef KFT_RUNTIME_H
#define KFT_RUNTIME_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

#include "../common/compiler.h"
#include "../config/config.h"
#include "../format/site-table.h"
#include "../format/trace-format.h"


#define KFT_MAX_TRIGGER_ADDRS 16
#define KFT_MAX_SIGNAL_NEST 16

/* A trigger with its function names resolved in this process image. */
struct rt_trigger {
	enum kft_trigger_type type;
	uint64_t ns;			/* TIME */
	size_t naddrs;
	uint64_t addrs[KFT_MAX_TRIGGER_ADDRS];
};

/* Where a configured function's code lies. */
struct kft_range {
	uint64_t start, end;
};

/* A function whose arguments or return value are saved (args.c). */
struct kft_args_fn {
	uint64_t addr;
	struct kft_argspec spec;
};

struct kft_runtime {
	volatile int ready;		/* 0: not yet, 1: recording, -1: disabled */
	struct kft_control *ctl;
	int dirfd;			/* the trace directory: kft_dir() */
	uint32_t session;
	uint32_t run_id;			/* the run whose config is loaded */
	struct kft_config cfg;
	struct rt_trigger start;
	struct rt_trigger stop;
	uint64_t mintime_ns;
	uint64_t maxtime_ns;
	uint64_t time_span;		/* a duration d is kept if d - mintime_ns <= this */
	struct kft_range *ranges;	/* configured functions, sorted */
	size_t nranges;
	uint64_t *funcs;		/* funclist, sorted */
	size_t nfuncs;
	bool has_funclist;
	uint64_t *notrace;		/* never traced, sorted */
	size_t nnotrace;
	uint64_t *graph;		/* only inside these, sorted */
	size_t ngraph;
	bool has_graph;
	uint32_t max_depth;		/* levels from the outermost traced call; 0: all */
	struct kft_args_fn *args;	/* the args statement's functions, sorted */
	size_t nargs;
	uint64_t max_records;		/* a thread's log may grow to this; a ring's size */
	bool overwrite;
	bool autorepeat;
	bool compress;			/* the helper compresses finished records */
	bool hijacked;			/* -pg hooks own return addresses now */
	bool plain;			/* no funclist, noints, onlyints, stop trigger,
					 * overwrite or compensation, and the TSC for
					 * a clock: the hooks may take their short
					 * path (kft_update_plain) */
	uint64_t pair_ns;		/* one call's hooks, measured at start */
	uint64_t inside_ns;		/* the part inside the call's own time */
	/* --compensate: what the stretch of program between two hooks holds
	 * of them that they cannot time (the clock's own reading, the call
	 * and return), measured at start, in 1/256 tick */
	uint64_t unseen_gap;
	/* and for the views (kft_control's comp_*): the same in ps, how
	 * far its tries spread, what the calibration's calls lost */
	uint64_t gap_ps, gap_spread_ps, taken_ps;
	uint32_t thread_seq;		/* names thread files uniquely */
	bool no_fallocate;		/* the file system takes no reservations */
	bool attached;			/* kft record -p loaded us into a running program */
	int attach_error;		/* why attaching failed: KFT_ATTACH_* */
	uint32_t parent_session;	/* a fork child's: the image it came from */
	uint64_t forked_ns;		/* and when; its map is that image's then */
};

struct kft_tls {
	struct kft_thread_hdr *hdr;	/* NULL until the thread's first event */
	uint64_t depth;			/* hdr->depth, which kft_set_depth keeps
					 * both of: the hooks' short path reads it
					 * here, without waiting for hdr's load */
	struct kft_frame *frames;
	uint64_t frames_cap;		/* frames[0..frames_cap) have room in the file */
	struct kft_rec *recs;
	uint64_t rec_mask;		/* record i is written to recs[i & rec_mask]:
					 * the log's ring - 1, or all ones */
	struct kft_site_table sites;
	size_t map_size;
	uint32_t file_seq;		/* names the file, with session and tid */
	uintptr_t lowest_sp;		/* deepest sp seen (for max_stack) */
	uintptr_t watch_sp;		/* the stack watch fires below this */
	uintptr_t sp_floor;		/* the higher of the two: below it, the
					 * hooks' short path turns back */
	uint64_t watch_rearm_depth;	/* `watch stack` re-arms below this depth */
	/* --compensate: the hooks' time on this thread (1/256 tick), from
	 * the first instruction of each to its last, and unseen_gap for each;
	 * the hook under way began at hook_start, the one before it ended at
	 * hook_end (ticks; stored by the hook's last instructions) */
	uint64_t hook_ticks;
	uint64_t hook_start;
	uint64_t hook_end;
	int busy;			/* recursion guard */
	int dead;			/* thread is exiting, or set-up failed */
	int in_signal;			/* signal-handler nesting */
	int prefault_slot;		/* 1 + the helper's slot for this log, or 0 */
	int compress_slot;		/* 1 + the compressor's slot for it, or 0 */
	uintptr_t signal_sp[KFT_MAX_SIGNAL_NEST];
	uintptr_t signal_ret[KFT_MAX_SIGNAL_NEST];	/* where the trampoline returns */
	/* fork: this thread's open frames as they were when it forked (the
	 * thread file is shared with the parent, which changes them at once) */
	/* the saved arguments' file (args.c), mapped when first needed,
	 * its blocks taken */
	struct kft_args_hdr *args_hdr;
	size_t args_map_size;
	size_t args_ready;		/* its first bytes whose room is taken */
	uint64_t args_pending;		/* the newest record whose return value is
					 * to come (its offset; 0: none): each
					 * holds the one before in that value */
	bool args_full;			/* no more room could be had: none saved */
	bool fork_saved;		/* the three below hold them */
	struct kft_frame *fork_frames;
	uint64_t fork_depth, fork_nframes;
};

extern struct kft_runtime kft_rt KFT_HIDDEN;

/* The shadow stack is depth deep now. */
static inline KFT_NOTRACE void kft_set_depth(struct kft_tls *t, uint64_t depth)
{
	t->depth = depth;
	t->hdr->depth = depth;
}

/* After lowest_sp or watch_sp changed. */
static inline KFT_NOTRACE void kft_set_sp_floor(struct kft_tls *t)
{
	t->sp_floor = t->lowest_sp > t->watch_sp ? t->lowest_sp : t->watch_sp;
}
/* --compensate: the hooks time themselves. Outside kft_rt because the
 * hooks' assembly reads it. */
extern int kft_hooks_timed KFT_HIDDEN;

/* Whether a full log ended (or is ending) the run. The flag is set before
 * the stop, so a thread that sees the run stopped sees it too; the stop
 * record (stop.how) is written after, and a thread could run many calls
 * in between. */
static inline KFT_NOTRACE bool kft_log_filled(void)
{
	return __atomic_load_n(&kft_rt.ctl->log_filled, __ATOMIC_ACQUIRE);
}
/* *hwm = n if n is more: the slot tables' marks of the slots ever taken */
static inline KFT_NOTRACE void kft_raise_to(int *hwm, int n)
{
	int now = __atomic_load_n(hwm, __ATOMIC_RELAXED);

	while (now < n && !__atomic_compare_exchange_n(hwm, &now, n, true, __ATOMIC_RELEASE,
							__ATOMIC_RELAXED))
		;
}

extern __thread struct kft_tls kft_tls KFT_HIDDEN __attribute__((tls_model("initial-exec")));

/* clock.c: nanoseconds since the trace's clock base, from the TSC or
 * from clock_gettime */
struct kft_clock {
	int use_tsc;
	uint64_t tsc0;		/* a TSC reading ... */
	uint64_t ns0;		/* ... and the time it stood for */
	uint64_t mult;		/* ns per tick, << 32 */
	uint64_t base;		/* the trace's clock base (CLOCK_MONOTONIC ns) */
};

extern struct kft_clock kft_clock KFT_HIDDEN;
/* tsc_mult: the TSC's rate kft record measured (0: none, measure it) */
/* maps.c: the end of the mapping that holds addr, or 0 */
uintptr_t kft_maps_end_of(uintptr_t addr) KFT_HIDDEN;

/* elf-section.c: the link-time address and size of path's allocated
 * section called name (0), or -1 */
int kft_elf_section(const char *path, const char *name, uint64_t *addr, uint64_t *size) KFT_HIDDEN;

/* trace-dir.c: the trace directory opened at path (0, or -1), and its
 * descriptor, opened again if the program closed it */
int kft_dir_open(const char *path) KFT_HIDDEN;
int kft_dir(void) KFT_HIDDEN;

void kft_clock_init(uint64_t clock_base, uint64_t tsc_mult) KFT_HIDDEN;
uint64_t kft_clock_slow(void) KFT_HIDDEN;

/*
 * Ticks: the clock's raw unit, TSC ticks where kft reads the TSC and
 * nanoseconds otherwise. The hooks read the TSC at their first
 * instruction (hooks-x86_64.S, mcount-x86_64.S) and turn it into time
 * with kft_tick_time.
 */
static inline KFT_NOTRACE uint64_t kft_ticks(void)
{
#if defined(__x86_64__)
	if (likely(kft_clock.use_tsc))
		return __builtin_ia32_rdtsc();
#endif
	return kft_clock_slow();
}

/* The trace's time (ns) of a TSC reading, where the clock is the TSC. */
static inline KFT_NOTRACE uint64_t kft_tsc_time(uint64_t ticks)
{
	int64_t d = (int64_t)(ticks - kft_clock.tsc0);

	return kft_clock.ns0 + (uint64_t)(((__int128)d * kft_clock.mult) >> 32);
}

/* The trace's time (ns) of a tick reading. */
static inline KFT_NOTRACE uint64_t kft_tick_time(uint64_t ticks)
{
	if (likely(kft_clock.use_tsc))
		return kft_tsc_time(ticks);
	return ticks;
}

#define KFT_HOOK_SHIFT 8		/* tls->hook_ticks counts 1/256 tick */

/* Nanoseconds in a span of hook time (1/256 tick). */
static inline KFT_NOTRACE uint64_t kft_hook_ns(uint64_t t)
{
	if (likely(kft_clock.use_tsc))
		return (uint64_t)(((unsigned __int128)t * kft_clock.mult) >> (32 + KFT_HOOK_SHIFT));
	return t >> KFT_HOOK_SHIFT;
}

static inline KFT_NOTRACE uint64_t kft_now(void)
{
	return kft_tick_time(kft_ticks());
}

/* hooks.c: the compiler's entry points, and the C sides the assembly
 * calls: the whole path (hooks.c) and the short one (hooks-short.c) */
void __cyg_profile_func_enter(void *fn, void *call_site);
void __cyg_profile_func_exit(void *fn, void *call_site);
uint64_t *kft_cyg_enter(void *fn, void *call_site, uint64_t ticks, uintptr_t sp) KFT_HIDDEN;
uint64_t *kft_cyg_exit(void *fn, void *call_site, uint64_t ticks, uintptr_t sp) KFT_HIDDEN;
void kft_cyg_enter_short(void *fn, void *call_site, uint64_t ticks, uintptr_t sp) KFT_HIDDEN;
void kft_cyg_exit_short(void *fn, void *call_site, uint64_t ticks, uintptr_t sp) KFT_HIDDEN;
uint64_t *kft_pg_entry(uintptr_t ip, uintptr_t *ret_loc, int fentry, uint64_t ticks,
		       const uint64_t *area, const uint64_t *frame) KFT_HIDDEN;
int kft_pg_entry_short(uintptr_t ip, uintptr_t *ret_loc, int fentry, uint64_t ticks) KFT_HIDDEN;
uintptr_t kft_pg_exit_short(uintptr_t sp, uint64_t ticks) KFT_HIDDEN;

/* events.c: the per-call work (its common path, kft_event_entry and
 * kft_event_exit, is events-hot.h's, inlined into the hooks) */
/* Close every frame deeper than sp (a longjmp to sp is under way). */
void kft_unwind_to(struct kft_tls *t, uintptr_t sp) KFT_HIDDEN;
/* In a fork child: log the frames [0, n) its parent logged as inherited. */
void kft_log_inherited(struct kft_tls *t, uint64_t n) KFT_HIDDEN;


/* thread.c: blocks for [off, off + len) of file fd, taken now (the file
 * grows to hold them): 0, or -1 when the file system is full (said) */
int kft_take_room(int fd, uint64_t off, uint64_t len) KFT_HIDDEN;
/* args.c: the thread's saved arguments' file let go (it stays) */
void kft_args_unmap(struct kft_tls *t) KFT_HIDDEN;
/* The thread's log is done: its .args file cut to its records, unmapped. */
void kft_args_finish(struct kft_tls *t) KFT_HIDDEN;
/* args.c: what the config's args statement asks of fn, or NULL */
const struct kft_argspec *kft_args_of(uint64_t fn) KFT_HIDDEN;
/* The argument registers a hook stub saw: the six integer ones, and the
 * eight floating-point ones' low words where the stub saved them. */
struct kft_arg_regs {
	uint64_t r[KFT_MAX_ARGS];
	uint64_t fp[KFT_MAX_FPARGS];
	bool have_fp;
	const uint64_t *stack;	/* the arguments passed on the stack (just above
				 * the return address), or NULL */
};
/* A hook took fn's entry at time now. Its arguments saved, if asked for
 * and logged. */
void kft_args_entered(struct kft_tls *t, uint64_t now, uintptr_t fn,
		      const struct kft_arg_regs *regs) KFT_HIDDEN;
/* The call of frame f returns retval (rax; fpret: xmm0's low word as
 * saved, or NULL): saved, if asked for and logged. */
void kft_args_leaving(struct kft_tls *t, const struct kft_frame *f, uint64_t retval,
		      const uint64_t *fpret) KFT_HIDDEN;

/* Where the stubs keep xmm0-7 (SAVE_VECTOR_ARGS), in bytes below the
 * integer registers' area (SAVE_INT_ARGS): mcount-x86_64.S's entry stub
 * pushes the clock and a pad between them, STUB_BEGIN nothing. */
#define KFT_PG_XMM_BELOW 144
#define KFT_STUB_XMM_BELOW 128

/* The argument registers as a hook stub saved them (hook-stub-x86_64.h):
 * SAVE_INT_ARGS's area, r10 lowest, the stub's frame, rdx at 8, and
 * SAVE_VECTOR_ARGS's xmm0-7 `below` bytes under the area. */
static inline KFT_NOTRACE void kft_stub_args(const uint64_t *area, const uint64_t *frame,
					     size_t below, const uintptr_t *ret_loc,
					     struct kft_arg_regs *regs)
{
	const unsigned char *xmm = (const unsigned char *)area - below;

	regs->r[0] = area[5];	/* rdi */
	regs->r[1] = area[4];	/* rsi */
	regs->r[2] = frame[1];	/* rdx */
	regs->r[3] = area[3];	/* rcx */
	regs->r[4] = area[2];	/* r8 */
	regs->r[5] = area[1];	/* r9 */
	for (int i = 0; i < KFT_MAX_FPARGS; i++)
		memcpy(&regs->fp[i], xmm + 16 * i, sizeof(regs->fp[i]));
	regs->have_fp = true;
	regs->stack = (const uint64_t *)(ret_loc + 1);
}

/* jumps.c: a jump to stack pointer sp is under way */
void kft_jump_to(uintptr_t sp) KFT_HIDDEN;

/* fibers.c: coroutines' logs */
void kft_fibers_thread_exit(void) KFT_HIDDEN;
void kft_fibers_forked(void) KFT_HIDDEN;

/* thread.c: per-thread buffer files */
int kft_thread_setup(struct kft_tls *t) KFT_HIDDEN;
int kft_thread_setup_forked(struct kft_tls *t) KFT_HIDDEN;
/* Around fork, in the forking thread: keep its open frames for the child,
 * and let them go in the parent. */
void kft_thread_before_fork(struct kft_tls *t) KFT_HIDDEN;
void kft_thread_after_fork(struct kft_tls *t) KFT_HIDDEN;
int kft_thread_grow_sites(struct kft_tls *t) KFT_HIDDEN;
/* frames[frames_cap] is wanted: take room for more; false if none. */
bool kft_thread_more_frames(struct kft_tls *t) KFT_HIDDEN;
int kft_thread_grow_log(struct kft_tls *t, uint64_t n) KFT_HIDDEN;
void kft_thread_trim(struct kft_tls *t) KFT_HIDDEN;
void kft_thread_finish(struct kft_tls *t) KFT_HIDDEN;
void kft_thread_unmap(struct kft_tls *t) KFT_HIDDEN;
void kft_thread_set_stack(struct kft_tls *t, uintptr_t top) KFT_HIDDEN;
void kft_thread_file_name(const struct kft_tls *t, char *name, size_t size) KFT_HIDDEN;

/* calibrate.c: measure pair_ns and inside_ns, and with --compensate
 * unseen_gap */
void kft_calibrate(bool compensate) KFT_HIDDEN;

/* helper.c: the runtime's own thread, for prefault.c and patch.c */
void kft_helper_start(void) KFT_HIDDEN;
void kft_helper_stop(void) KFT_HIDDEN;
/* The helper thread ends (after a detach, or a failed attach). */
void kft_helper_quit(void) KFT_HIDDEN;
bool kft_helper_running(void) KFT_HIDDEN;
int kft_helper_tid(void) KFT_HIDDEN;	/* 0 when none runs */

/* hold-threads.c: every other thread of the program held still in a
 * signal handler, where each was (its pc), for code to be rewritten
 * under it; nothing is held when it says -1. One hold at a time. */
#define KFT_HELD_MAX 1024
struct kft_held {
	size_t n;
	size_t asleep;			/* of them, asleep in a system call: not held */
	uintptr_t pc[KFT_HELD_MAX];
};
int kft_hold_threads(struct kft_held *held) KFT_HIDDEN;
/* Hold too the sleepers that have woken since (each now where a signal
 * found it, in held as the others are): 0, or -1 if one cannot be. */
int kft_hold_woken(struct kft_held *held) KFT_HIDDEN;
void kft_release_threads(void) KFT_HIDDEN;

/* prefault.c: the helper keeps the logs faulted in ahead */
void kft_prefault_reset(void) KFT_HIDDEN;
bool kft_prefault_step(void) KFT_HIDDEN;
void kft_prefault_add(struct kft_tls *t, size_t done) KFT_HIDDEN;
size_t kft_prefault_remove(struct kft_tls *t) KFT_HIDDEN;
size_t kft_prefault_grown(struct kft_tls *t, size_t done) KFT_HIDDEN;

/* compress.c: the helper compresses finished records into .kfz files */
void kft_compress_reset(void) KFT_HIDDEN;
bool kft_compress_step(void) KFT_HIDDEN;
void kft_compress_add(struct kft_tls *t) KFT_HIDDEN;
void kft_compress_done(struct kft_tls *t) KFT_HIDDEN;
int kft_compress_make_room(struct kft_tls *t, uint64_t need) KFT_HIDDEN;
/* A log may be a ring of this many records (trace-format.h's ring): a
 * multiple of KFT_ZCHUNK_RECS, larger than the deepest shadow stack */
#define KFT_RING_RECS (1ULL << 20)

/* patch.c: -fpatchable-function-entry NOPs become calls to __fentry__
 * while a run is armed or running */
void kft_patch_all(void) KFT_HIDDEN;
/* size bytes, read-write, which a rel32 from near addr reaches; 0: none */
uintptr_t kft_map_near(uintptr_t addr, size_t size) KFT_HIDDEN;

/* A loaded object, by its base and its file as stat(2) saw it: what was
 * learnt of it holds while both are the same (a file rebuilt or replaced
 * is another). */
struct kft_object_id {
	uintptr_t base;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};

static inline KFT_NOTRACE struct kft_object_id kft_object_id(uintptr_t base, const struct stat *st)
{
	return (struct kft_object_id){ base, st->st_dev, st->st_ino, st->st_size, st->st_mtim };
}

static inline KFT_NOTRACE bool kft_object_is(const struct kft_object_id *id, uintptr_t base,
					     const struct stat *st)
{
	return id->base == base && id->dev == st->st_dev && id->ino == st->st_ino &&
	       id->size == st->st_size && id->mtime.tv_sec == st->st_mtim.tv_sec &&
	       id->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

/* Whether a rel32 in an instruction that ends at from reaches to. */
static inline KFT_NOTRACE bool kft_rel32_reaches(uintptr_t from, uintptr_t to)
{
	intptr_t rel = (intptr_t)(to - from);

	return rel == (int32_t)rel;
}
/* dynamic.c: a program built without instrumentation has its functions'
 * entries patched at start, as kft record planned (format/patch-plan.h) */
void kft_dynamic_patch(void) KFT_HIDDEN;
/* After dlopen: the libraries kft record --lib planned that are loaded
 * now, the program's other threads held still meanwhile if it has any. */
void kft_dynamic_patch_opened(void) KFT_HIDDEN;
/* A thread trapped on the int3 at p: where it goes on if the int3 is one
 * dynamic.c wrote over a function entry, else 0 (patch.c's SIGTRAP). */
uintptr_t kft_dynamic_trap(uintptr_t p) KFT_HIDDEN;
/* Whether the object at base, the file at path, has functions patched
 * (its calls are recorded by their own hooks, as an instrumented one's). */
bool kft_dynamic_patched(uintptr_t base, const char *path) KFT_HIDDEN;
/* --libcalls (plt.c): the GOT slots of the program and of instrumented
 * libraries through kft (at start, after dlopen); slot n's function and
 * what it is recorded as */
void kft_plt_hook_all(void) KFT_HIDDEN;
void kft_plt_unhook_all(void) KFT_HIDDEN;
void kft_plt_forget_closed(void) KFT_HIDDEN;
void kft_plt_forked(void) KFT_HIDDEN;
uintptr_t kft_plt_target(uint64_t n) KFT_HIDDEN;
uintptr_t kft_plt_func(uint64_t n) KFT_HIDDEN;
/* Of an object's GOT slots at slots[0..n) (sorted), those its code calls
 * or jumps through (called[i]) and those it reads otherwise (other[i]:
 * the function's address taken) (got-refs.c). */
struct dl_phdr_info;
void kft_got_refs(const struct dl_phdr_info *info, const uintptr_t *slots, size_t n,
		  bool *called, bool *other) KFT_HIDDEN;
void kft_patch_follow_run(void) KFT_HIDDEN;
void kft_patch_forked(void) KFT_HIDDEN;
/* Whether sites may be rewritten under running threads (asking the
 * kernel for membarrier SYNC_CORE, taking SIGTRAP); kft_patch_all uses
 * live rewriting from then on. */
bool kft_patch_live(void) KFT_HIDDEN;
int kft_patch_live_known(void) KFT_HIDDEN;	/* -1 not asked yet, else kft_patch_live's */
void kft_patch_sync_cores(void) KFT_HIDDEN;
/* Attached, when kft record -p leaves (KFT_MODE_DETACH): once the run is
 * over and every site a NOP again, the control file says so
 * (KFT_STATE_DETACHED); true then. */
bool kft_patch_detached(void) KFT_HIDDEN;

/* signals.c: a signal kft handles first (SIGTRAP, for live patching;
 * SIGURG, to hold threads); what is not kft's goes on to the program's
 * action */
int kft_signal_own(int sig, void (*handler)(int, siginfo_t *, void *)) KFT_HIDDEN;
void kft_signal_pass(int sig, siginfo_t *info, void *uctx) KFT_HIDDEN;
uint64_t kft_signal_caller(const struct kft_tls *t, uint64_t call_site) KFT_HIDDEN;

/* init.c */
int kft_runtime_init(void) KFT_HIDDEN;
/* kft_attach's answers, besides 0 (kept in step with kft record -p) */
#define KFT_ATTACH_TRACED	1	/* already traced */
#define KFT_ATTACH_TRACE	2	/* the trace directory could not be joined */
#define KFT_ATTACH_NO_HELPER	3	/* one CPU, or KFT_PREFAULT=0: no helper thread */
#define KFT_ATTACH_NO_LIVE	4	/* no membarrier SYNC_CORE: no live patching */
KFT_EXPORT int kft_attach(const char *dir);
/* A static run (kft embed, static-run.c): the trace directory it made,
 * or NULL when this is none; and its end, marked at exit. */
const char *kft_static_run_dir(void) KFT_HIDDEN;
void kft_static_run_end(void) KFT_HIDDEN;
/* env.c: getenv, also in a .preinit_array function, before the C library
 * has set up the environment */
const char *kft_env(const char *name) KFT_HIDDEN;
void kft_save_maps(bool closing) KFT_HIDDEN;
struct dl_phdr_info;
/* A loaded object's file by its real path (out holds it when needed), or
 * NULL for one without a file (the vDSO). */
const char *kft_object_path(const struct dl_phdr_info *info, char *out, size_t size) KFT_HIDDEN;

/* resolve.c: the config's functions in this image; a new run's config */
void kft_load_config(void) KFT_HIDDEN;
void kft_resolve_config(void) KFT_HIDDEN;
void kft_reload_follow(void) KFT_HIDDEN;
uint64_t kft_config_func_at(uint64_t addr) KFT_HIDDEN;
void kft_update_plain(void) KFT_HIDDEN;

#endif
