/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The on-disk trace directory (kft.data/), version 2. Documented in
 * docs/kft-data.5. All integers are little-endian (we only write on
 * little-endian hosts and the reader checks the magic).
 *
 *   kft.data/info                text: key = value (command, clock, versions)
 *   kft.data/config              the configuration, as kft printed it back
 *   kft.data/control             struct kft_control, shared by every traced
 *                                process and by `kft start|stop|prime|status`
 *   kft.data/maps-<session>      /proc/<pid>/maps of one process image
 *   kft.data/thread-<session>-<tid>-<seq>.kft
 *                                struct kft_thread_hdr, then the shadow stack
 *                                (frames still open), the call sites, and
 *                                the records, last, so that the file grows
 *                                with the log (a reader goes by the offsets
 *                                in the header, not by this order)
 *   kft.data/thread-<session>-<tid>-<seq>.kfz
 *                                the same thread's finished records,
 *                                compressed (struct kft_zhdr, then frames);
 *                                records [0, n) read from here, the rest
 *                                from the .kft file, whose pages for them
 *                                were given back
 *   kft.data/thread-<session>-<tid>-<seq>.args
 *                                the thread's saved arguments and return
 *                                values: struct kft_args_hdr, then struct
 *                                kft_argrec records in the order written
 *   kft.data/vdso                the kernel's vDSO as the traced processes
 *                                had it mapped (an ELF image: its functions'
 *                                names, for the mappings "[vdso]" names)
 *   kft.data/switches            the traced threads' context switches, as
 *                                the kernel reported them (perf events):
 *                                struct kft_switches_hdr, then struct
 *                                kft_switch records in the order they came
 *
 * A "session" is one process image: a process start, a fork child or an
 * exec each get a new session number, so addresses are always resolved
 * against the right memory map.
 */
#ifndef KFT_TRACE_FORMAT_H
#define KFT_TRACE_FORMAT_H

#define KFT_VDSO_FILE "vdso"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../common/compiler.h"

#define KFT_FORMAT_VERSION 6	/* 4: records may sit in a .kfz; 5: a fork
				 * child's log may begin with inherited rows;
				 * 6: a log may be a ring behind its .kfz (ring) */
#define KFT_FORMAT_OLDEST 3	/* the oldest version this kft reads */
#define KFT_CONTROL_MAGIC "KFTCTRL"
#define KFT_THREAD_MAGIC "KFTTHRD"

/* control->state bits; the stop generation sits above them */
#define KFT_STATE_PRIMED	0x1ULL
#define KFT_STATE_TRIGGERED	0x2ULL
#define KFT_STATE_COMPLETE	0x4ULL
#define KFT_STATE_PAUSED	0x8ULL	/* tracing off (ftrace's tracing_on 0): calls
					 * entered now are not logged; the run and
					 * the calls open before go on */
#define KFT_STATE_DETACHED	0x10ULL	/* kft record -p: the run is over and the
					 * program's sites are NOPs again */
#define KFT_STATE_FLAGS		0xffULL
#define KFT_STATE_GEN_SHIFT	8

/* control->mode, as KFT's run flags, plus ours */
#define KFT_MODE_TIMED		0x1
#define KFT_MODE_AUTOREPEAT	0x2
#define KFT_MODE_OVERWRITE	0x8
#define KFT_MODE_COMPENSATE	0x10	/* durations less the hooks' own cost */
#define KFT_MODE_NO_COMPRESS	0x20	/* finished records stay raw (--no-compress) */
#define KFT_MODE_DETACH		0x40	/* kft record -p leaves: once the run is over,
					 * make the sites NOPs and say DETACHED */
#define KFT_MODE_LIBCALLS	0x80	/* the program's library calls too (--libcalls) */
#define KFT_MODE_LIBCALLS_ALL	0x100	/* and every library's (--libcalls=all) */

#define KFT_SWITCHES_MAGIC "KFTSWCH"

struct kft_switches_hdr {
	char magic[8];		/* KFT_SWITCHES_MAGIC */
	uint32_t version;	/* 1 */
	uint32_t rec_size;	/* sizeof(struct kft_switch) */
	uint64_t clock_base_ns;	/* as the control file's */
};

#define KFT_SWITCH_OUT		0x1	/* the thread left the CPU (else: came back) */
/* the state of the task that went (the thread itself, or on a switch in,
 * the other task, where known): */
#define KFT_SWITCH_PREEMPTED	0x2	/* preempted, still runnable (R) */
#define KFT_SWITCH_STATE_D	0x4	/* asleep uninterruptibly (D; else S) */
/* not a switch: the thread was woken (by other_tid, to run on cpu) */
#define KFT_SWITCH_WAKEUP	0x8

#define KFT_SWITCH_UNKNOWN_TID	UINT32_MAX

/* One context switch of a traced thread. */
struct kft_switch {
	uint64_t ns;		/* since clock_base_ns */
	uint32_t pid, tid;
	uint32_t cpu;
	uint32_t flags;		/* KFT_SWITCH_* */
	uint32_t other_tid;	/* the task switched to (out) or from (in), 0 the idle
				 * task; KFT_SWITCH_UNKNOWN_TID where not known */
	int16_t prio, other_prio;	/* the kernel's priorities, -1 not known */
};

/*
 * A marker (kft.h's kft_printf, kft_mark, as ftrace's trace_marker): one
 * record of the trace's `marks` file, appended whole by one write from
 * any thread of any process while the run logs.
 */
#define KFT_MARK_TEXT 96
struct kft_mark {
	uint64_t ns;		/* since clock_base_ns */
	uint32_t pid, tid;
	uint32_t session;	/* the process image */
	uint32_t depth;		/* the thread's calls open then */
	uint16_t len;		/* bytes of text */
	uint8_t in_signal;	/* made in a signal handler */
	uint8_t pad[5];
	char text[KFT_MARK_TEXT];	/* not NUL-terminated when full */
};

/*
 * Saved arguments and return values (the config's args statement, kft
 * record -A and -R): one record a call in its thread's .args file,
 * written at the call's entry and counted in the file's header then. It
 * names its call as the call's own record does (entry time, function;
 * the thread and image are the file's) and holds the values asked for
 * only, each a struct kft_argval, a string's text after it. A return
 * value asked for comes first, with room for its text, and is filled in
 * as the call returns: until then its state is KFT_ARGSTR_PENDING (a call
 * that never returned keeps it so).
 *
 * Version 2 wrote a record at the entry (struct kft_argrec_head_v2, kind
 * KFT_ARGREC_ARGS) and another at the exit (KFT_ARGREC_RETVAL), each
 * naming its thread and image: readers still read it.
 */
#define KFT_ARGS_MAGIC "KFTARGS"
#define KFT_ARGS_OFF 64			/* the first record's offset */
#define KFT_ARGS_VERSION 3
#define KFT_ARGS_STR_MAX 64		/* a string's bytes kept at most */
struct kft_args_hdr {
	char magic[8];
	uint32_t version;		/* KFT_ARGS_VERSION (1: no floating-point
					 * slots, no 'b' or 'f' formats) */
	uint32_t tid;			/* 3: the thread the calls ran on */
	uint64_t end;			/* records end here: those before are whole */
	uint64_t lost;			/* records not saved: no room could be had */
	uint32_t session;		/* 3: the process image they ran in */
	uint32_t spare0;
	uint64_t spare[3];
};

#define KFT_ARGREC_ARGS		1	/* 2: the arguments asked for */
#define KFT_ARGREC_RETVAL	2	/* 2: the return value */
#define KFT_ARGREC_CALL		3	/* 3: both, the return value first */
struct kft_argrec_head {
	uint64_t entry_ns;	/* the call's entry, as its record has it */
	uint64_t func;		/* the function's address */
	uint64_t sp;		/* the stack pointer at the call's entry (KFT's
				 * frame pointer column) */
	uint16_t size;		/* the whole record's bytes, a multiple of 8 */
	uint8_t kind;		/* KFT_ARGREC_CALL */
	uint8_t nvals;		/* struct kft_argval that follow */
	uint32_t spare;
};

struct kft_argrec_head_v2 {
	uint64_t entry_ns, func;
	uint32_t tid, session;
	uint16_t size;
	uint8_t kind;		/* KFT_ARGREC_ARGS or KFT_ARGREC_RETVAL */
	uint8_t nvals;
	uint32_t spare;
	uint64_t sp;
};

/* what the text after a value holds of the string it points to */
#define KFT_ARGSTR_NONE		0	/* not a string */
#define KFT_ARGSTR_READ		1	/* read, str_len bytes */
#define KFT_ARGSTR_CUT		2	/* longer: its first str_len bytes */
#define KFT_ARGSTR_NULL		3	/* the pointer was NULL */
#define KFT_ARGSTR_FAULT	4	/* it pointed at no readable memory */
#define KFT_ARGSTR_PENDING	5	/* 3: a return value yet to come (value:
					 * the writer's own bookkeeping) */
#define KFT_ARGVAL_RETVAL	6	/* slot of the return value */
#define KFT_ARGVAL_FP0		8	/* slots 8..15: floating-point arguments 1..8 */
#define KFT_ARGVAL_STACK0	16	/* slots 16..23: words passed on the stack (3;
					 * 2: structs in memory, 'S' only) */
struct kft_argval {
	uint64_t value;		/* the register (a float's: its low 32 bits) */
	uint8_t slot;		/* integer argument 0..5, KFT_ARGVAL_RETVAL, or a
				 * floating-point one, KFT_ARGVAL_FP0 + 0..7 */
	char fmt;		/* how it shows: 'd', 'u', 'x', 's', 'b', 'f', 'e', 'S' (config.h) */
	uint8_t bits;		/* its size: 8, 16, 32, or 0: 64 */
	uint8_t str_state;	/* KFT_ARGSTR_* */
	uint16_t str_len;	/* bytes of text after it (then padding to 8) */
	uint16_t room;		/* 3: bytes kept after it for a text still to
				 * come (a return value's string), a multiple
				 * of 8; 0: str_len's, rounded up */
};

/* The most values a record holds (a spec's every item), and so the
 * largest record: a writer keeps this much room ahead, a reader's window
 * holds it whole. */
#define KFT_ARGREC_MAX_VALS 23
#define KFT_ARGREC_MAX (sizeof(struct kft_argrec_head) + \
			KFT_ARGREC_MAX_VALS * (sizeof(struct kft_argval) + KFT_ARGS_STR_MAX))

/* Where the value after v begins, from v. */
static inline size_t kft_argval_next(const struct kft_argval *v)
{
	return sizeof(*v) + (v->room ? v->room : (v->str_len + 7U) & ~7U);
}

/* Why the run started or stopped (enum kft_trigger_type values). */
struct kft_fired {
	uint32_t how;		/* 0: not yet */
	uint32_t session;	/* the process image that fired it */
	uint64_t mark_ns;	/* since clock_base_ns */
	uint64_t func;		/* ENTRY/EXIT: function address */
	uint64_t usecs;		/* TIME: the configured time */
};

struct kft_control {
	char magic[8];
	uint32_t version;
	uint32_t size;			/* sizeof(struct kft_control) */
	uint64_t clock_base_ns;		/* CLOCK_MONOTONIC when recording began */
	uint64_t state;			/* KFT_STATE_* | generation << 8 */
	uint32_t run_id;
	uint32_t mode;			/* KFT_MODE_* */
	uint64_t first_start_ns;	/* first start mark (log "Entry" is relative to it) */
	struct kft_fired start;		/* latest start */
	struct kft_fired stop;		/* latest stop */
	uint32_t next_session;		/* atomic counter */
	uint32_t run_loaded;		/* atomic: the newest run id a process image has
					 * taken the config of (kft config waits for it);
					 * 0 in traces older than kft config */
	uint64_t hook_cost_ns;		/* a call's hook pair, measured at start; 0 = not */
	uint64_t hook_inside_ns;	/* the part of it inside the call's own time */
	uint64_t max_log_bytes;		/* --max-size: the records of every thread
					 * file together; 0 = no cap */
	uint64_t log_bytes;		/* atomic: record bytes the files hold now */
	uint64_t ended_ns;		/* when the traced program ended (set by
					 * `kft record`); 0 while it runs */
	uint64_t max_size_reached;	/* 1: a log could not grow within max_log_bytes */
	uint64_t log_filled;		/* 1: a log was full; set before that stops the run */
	uint32_t spares_made;		/* `kft record` made spare-0 .. spare-(made-1),
					 * new thread files for the threads to take */
	uint32_t spares_taken;		/* atomic: spare-0 .. spare-(taken-1) are taken */
	uint32_t disk_full;		/* 1: a log found no room on its file system */
	uint32_t threads_lost;		/* atomic: threads no log could be made for */
	/* --compensate's calibration (the first process image's; 0 = not
	 * measured, and in traces before these fields): what it takes off
	 * each stretch of program between two hooks besides the hooks' own
	 * time, how far its tries spread (half their range), and what it
	 * took off the calibration's calls in all, per nested call (ps) */
	uint64_t comp_gap_ps;
	uint64_t comp_spread_ps;
	uint64_t comp_taken_ps;
};

/* The control struct before the calibration's fields: readers take it,
 * the newer fields 0. */
#define KFT_CONTROL_SIZE_OLDEST offsetof(struct kft_control, comp_gap_ps)

/* After the struct, where `kft record` wrote it (not in attached runs or
 * older traces, which end with the struct): the TSC's rate, ns a tick
 * << 32, measured while it set the run up, taken by every process's
 * runtime instead of measuring it again (common/tsc-rate.h). 0: none. */
#define KFT_CONTROL_TSC_MULT_OFF sizeof(struct kft_control)

/* Per-thread counters: each thread writes only its own, so no atomics. */
struct kft_counters {
	uint64_t time_filtered;		/* calls dropped by mintime/maxtime */
	uint64_t noints_filtered;	/* calls dropped by noints */
	uint64_t onlyints_filtered;	/* calls dropped by onlyints */
	uint64_t funclist_filtered;	/* calls dropped by funclist */
	uint64_t not_found;		/* exits during a run whose entry was not logged */
	uint64_t overwritten;		/* records lost to the overwrite policy */
	uint64_t log_full;		/* calls not logged because the log was full
					 * (counted from the stop on, in every thread) */
	uint64_t depth_overflow;	/* calls deeper than the shadow stack */
	uint64_t unwound;		/* calls left by longjmp */
	uint64_t watch_hits;		/* stack watch firings */
	uint64_t sites_full;		/* calls not logged: the site table was full */
};

struct kft_thread_hdr {
	char magic[8];
	uint32_t version;
	uint32_t hdr_size;		/* sizeof(struct kft_thread_hdr) */
	uint32_t pid;
	uint32_t tid;
	uint32_t session;
	uint32_t rec_size;		/* sizeof(struct kft_rec) */
	uint32_t frame_size;		/* sizeof(struct kft_frame) */
	uint32_t overwrite;		/* 1: records form a ring */
	uint64_t shadow_off;		/* file offset of frames[shadow_cap] */
	uint64_t shadow_cap;
	uint64_t records_off;		/* file offset of records[capacity] */
	uint64_t capacity;		/* records the file holds now (it grows) */
	uint64_t head;			/* records written so far (ring: index = head % capacity) */
	uint64_t reserved;		/* slots promised to logged, still open calls */
	uint64_t depth;			/* current call depth; frames[0..min(depth,cap)) are valid */
	uint64_t stack_base;		/* highest address of this thread's stack */
	uint64_t max_stack;		/* deepest stack in use seen, in bytes */
	struct kft_counters counters;
	char comm[16];
	uint64_t sites_off;		/* file offset of sites[sites_cap] */
	uint64_t sites_cap;
	uint64_t nsites;		/* sites[0..nsites) are valid */
	uint64_t coroutine;		/* 0: the thread's own stack; n: the log of
					 * its coroutines' stacks numbered n (a
					 * thread's file per stack, fibers.c) */
	uint64_t parent_session;	/* a fork child's: the image it was forked
					 * from, whose memory map it started with;
					 * 0: none */
	uint64_t forked_ns;		/* and when */
	uint64_t cpus_filtered;		/* calls dropped by filter cpus (not among the
					 * counters: older files hold 0 here) */
	uint64_t ring;			/* 0: record i is in slot i; else the log grows
					 * to this many slots (a power of two) and
					 * record i is in slot i % ring, written once
					 * its .kfz holds record i - ring: capacity,
					 * once it reaches ring, is raised by whoever
					 * compresses (kft_rec_slot) */
};

/* The slot that record i is in, of a log whose ring is ring (0: none). */
static inline uint64_t kft_ring_slot(uint64_t ring, uint64_t i)
{
	return ring ? i & (ring - 1) : i;
}

/* The slot of the file's records that record i of h's log is in. */
static inline uint64_t kft_rec_slot(const struct kft_thread_hdr *h, uint64_t i)
{
	return kft_ring_slot(h->ring, i);
}

/* The slots of the file's records that h's log has. */
static inline uint64_t kft_rec_slots(const struct kft_thread_hdr *h)
{
	return h->ring && h->capacity > h->ring ? h->ring : h->capacity;
}

/* frame->flags */
#define KFT_FRAME_LOGGED	0x1	/* counted in the log; must end as a record */
#define KFT_FRAME_SIGNAL	0x2	/* entered in signal-handler context */
#define KFT_FRAME_FILTERED	0x4	/* dropped by a filter at entry */
#define KFT_FRAME_KERNEL	0x8	/* a kernel function (from ftrace) */
#define KFT_FRAME_HIJACKED	0x10	/* -pg: its return address is kft's trampoline */
#define KFT_FRAME_IN_GRAPH	0x20	/* inside a graph function (filter graph) */
#define KFT_FRAME_WATCHED	0x40	/* watch worst-stack: its row is in the chain
					 * logged so far */
#define KFT_FRAME_RETVAL	0x80	/* its return value is saved as it ends
					 * (runtime/args.c): not the short path */
#define KFT_FRAME_LEVEL_SHIFT	16	/* in a graph function, flags >> this: the
					 * levels below it (at most 0xffff) */

/* One open call on the shadow stack. */
struct kft_frame {
	uint64_t func;
	uint64_t call_site;
	uint64_t entry_ns;
	uint64_t sp;			/* stack pointer at the hook, for longjmp recovery */
	uint32_t flags;
	uint32_t gen;			/* run generation at entry */
	uint64_t hook_ticks;		/* --compensate: the thread's hook time
					 * before this call's entry hook began */
};

/* The most records one thread file holds (readers index them in 32 bits). */
#define KFT_MAX_THREAD_RECORDS 0xffffffffULL

/* rec->dur special values */
#define KFT_DUR_UNFINISHED	0xffffffffU	/* printed as -1 */
#define KFT_DUR_WATCH		0xfffffffeU	/* printed as -2: stack watch */
#define KFT_DUR_INHERITED	0xfffffffdU	/* a fork child's first rows: a call
						 * open at the fork, the parent's */

/* A record's flags (struct kft_rec_data.flags, struct kft_call.flags) */
#define KFT_REC_SIGNAL		(1U << 24)	/* signal-handler (interrupt) context */
#define KFT_REC_UNWOUND		(1U << 25)	/* left by longjmp, not by return */
#define KFT_REC_KERNEL		(1U << 26)	/* a kernel function (from ftrace) */
#define KFT_REC_FLAGS		(KFT_REC_SIGNAL | KFT_REC_UNWOUND | KFT_REC_KERNEL)
/* Readers only (struct kft_call.flags): a call a fork child was inside
 * when it began, its parent's (a row KFT_DUR_INHERITED): views draw the
 * child's calls under it, and count it with the parent's. */
#define KFT_CALL_INHERITED	(1U << 27)
/* Readers only: a kernel call the call stream put under the program call
 * that made it (call-stream.h): its parent is the call open one less deep. */
#define KFT_CALL_UNDER_PROGRAM	(1U << 28)

/* A function and the return address it was called from: records name
 * one by its index in the thread file's site table. */
struct kft_site {
	uint64_t func;
	uint64_t call_site;
};

/*
 * One call: 16 bytes, written when it ends.
 *   entry_depth   entry time bits 0-47 << 16 | depth bits 0-15
 *   dur           kft_dur_encode()
 *   site_flags    site id (bits 0-19) | flags (KFT_REC_* >> 4, bits 20-22)
 *                 | depth bits 16-17 (bits 23-24) | entry time bits 48-54
 *                 (bits 25-31)
 * Depths saturate at 2^18 - 1; entry times count ns from the clock base,
 * 55 bits: 416 days.
 */
struct kft_rec {
	uint64_t entry_depth;
	uint32_t dur;
	uint32_t site_flags;
};

/*
 * A new thread file: header, shadow stack, sites, then the records from a
 * page boundary, with room for KFT_FIRST_RECORDS to begin with. The
 * runtime makes each so, or takes one of the spare files `kft record`
 * made ahead of it (KFT_SPARE_SIZE bytes).
 */
#define KFT_SHADOW_CAP		(1U << 17)	/* frames per thread: 131072 */
#define KFT_SITES_CAP		(1U << 20)	/* call sites per thread */
#define KFT_FIRST_RECORDS	(1U << 12)	/* 64 KiB of records */
#define KFT_FIRST_FRAMES	(1U << 6)	/* room taken on the file system */
#define KFT_FIRST_SITES		(1U << 8)	/* ... for these to begin with */
#define KFT_SITES_OFF		(sizeof(struct kft_thread_hdr) + \
				 KFT_SHADOW_CAP * sizeof(struct kft_frame))
#define KFT_RECORDS_OFF		((KFT_SITES_OFF + KFT_SITES_CAP * sizeof(struct kft_site) + \
				  4095) & ~(uint64_t)4095)
#define KFT_SPARE_SIZE		(KFT_RECORDS_OFF + KFT_FIRST_RECORDS * sizeof(struct kft_rec))

#define KFT_REC_DEPTH_MAX	0x3ffffU
#define KFT_SITE_BITS		20
#define KFT_SITE_MAX		((1U << KFT_SITE_BITS) - 1)

/* The same, unpacked. */
struct kft_rec_data {
	uint64_t entry_ns;
	uint64_t func;
	uint64_t call_site;
	uint32_t dur;			/* kft_dur_encode() */
	uint32_t depth;
	uint32_t flags;			/* KFT_REC_* */
};

static inline KFT_NOTRACE void
kft_rec_pack(struct kft_rec *r, uint64_t entry_ns, uint64_t depth, uint32_t dur, uint32_t site,
	     uint32_t flags)
{
	uint32_t d = (uint32_t)(depth < KFT_REC_DEPTH_MAX ? depth : KFT_REC_DEPTH_MAX);

	r->entry_depth = entry_ns << 16 | (d & 0xffff);
	r->dur = dur;
	r->site_flags = site | (flags & KFT_REC_FLAGS) >> 4 | (d >> 16) << 23 |
			(uint32_t)(entry_ns >> 48) << 25;
}

/* A .kfz file: this header, then frames, each a struct kft_zframe and
 * its zsize bytes, one after another from record 0 on. */
#define KFT_ZREC_MAGIC "KFTZREC"
#define KFT_ZFRAME_MAGIC 0x465a464bU	/* "KFZF" */
#define KFT_ZCHUNK_RECS 4096		/* records a frame holds (the last may hold fewer) */
#define KFT_ZCODEC_ZSTD_DELTA 1		/* zstd of the records, each entry word
					 * less the one before it (older kft) */
#define KFT_ZCODEC_ZSTD_COLUMNS 2	/* zstd of the records' fields, a column
					 * each, as differences (older kft) */
#define KFT_ZCODEC_RICE 3		/* what the call tree predicts, in Rice
					 * codes (zcodec-rice.h) */

struct kft_zhdr {
	char magic[8];
	uint32_t version;
	uint32_t hdr_size;		/* sizeof(struct kft_zhdr) */
	uint32_t chunk_recs;		/* KFT_ZCHUNK_RECS */
	uint32_t codec;			/* KFT_ZCODEC_* */
	uint64_t resume;		/* the newest whole frame, for a writer that
					 * continues the file: kft_zresume_hint of
					 * its offset and first record, written after
					 * it; 0: none (read every frame's header) */
};

struct kft_zframe {
	uint32_t magic;			/* KFT_ZFRAME_MAGIC */
	uint32_t zsize;			/* compressed bytes that follow */
	uint64_t first;			/* its first record's index */
	uint32_t nrecs;
	uint32_t spare;
};

/* Whether the .kfz bytes map[0, size) hold at off a whole frame of the
 * records from first on (*f its header); not, where a crash or a full
 * disk cut the file short. kft_zframe_whole: the same, for a header read
 * from off of a file of size bytes. */
static inline KFT_NOTRACE bool kft_zframe_whole(const struct kft_zframe *f, uint64_t size,
						uint64_t off, uint64_t first)
{
	return off <= size && size - off >= sizeof(*f) && f->magic == KFT_ZFRAME_MAGIC &&
	       f->first == first && f->nrecs && f->nrecs <= KFT_ZCHUNK_RECS &&
	       f->zsize <= size - off - sizeof(*f);
}

static inline KFT_NOTRACE bool kft_zframe_at(const char *map, uint64_t size, uint64_t off,
					     uint64_t first, struct kft_zframe *f)
{
	if (off > size || size - off < sizeof(*f))
		return false;
	memcpy(f, map + off, sizeof(*f));
	return kft_zframe_whole(f, size, off, first);
}

/* The .kfz header's resume for a frame at off whose first record is
 * first: the offset, and 16 bits of first to check it by. */
static inline KFT_NOTRACE uint64_t kft_zresume_hint(uint64_t off, uint64_t first)
{
	return off << 16 | (uint16_t)((first * 0x9e3779b97f4a7c15ULL) >> 48);
}

/* Whether name is a thread file's: thread-*.kft. */
static inline bool kft_is_thread_file_name(const char *name)
{
	size_t len = strlen(name);

	return len > 11 && !strncmp(name, "thread-", 7) && !strcmp(name + len - 4, ".kft");
}

/* Unpack r; its site comes from sites[0..nsites), or reads as 0 if r is
 * corrupt and names none. */
static inline void kft_rec_unpack(const struct kft_rec *r, const struct kft_site *sites,
				  uint64_t nsites, struct kft_rec_data *out)
{
	uint32_t site = r->site_flags & KFT_SITE_MAX;

	out->entry_ns = r->entry_depth >> 16 | (uint64_t)(r->site_flags >> 25) << 48;
	out->depth = (uint32_t)(r->entry_depth & 0xffff) | ((r->site_flags >> 23) & 3) << 16;
	out->dur = r->dur;
	out->flags = (r->site_flags << 4) & KFT_REC_FLAGS;
	if (site < nsites) {
		out->func = sites[site].func;
		out->call_site = sites[site].call_site;
	} else {
		out->func = out->call_site = 0;
	}
}

/*
 * Durations below 2^31 ns (2.1 s) are stored exactly; longer ones as a
 * 26-bit mantissa and a shift (relative error below 2e-8).
 */
static inline uint32_t kft_dur_encode(uint64_t ns)
{
	unsigned int shift;

	if (ns < (1ULL << 31))
		return (uint32_t)ns;
	shift = (unsigned int)(64 - __builtin_clzll(ns)) - 26;
	if (shift > 30)
		return 0x80000000U | (30U << 26) | 0x03ffffffU;
	return 0x80000000U | (shift << 26) | (uint32_t)(ns >> shift);
}

/* Returns the duration in ns, or -1 (unfinished) or -2 (stack watch). */
static inline int64_t kft_dur_decode(uint32_t dur)
{
	if (dur == KFT_DUR_UNFINISHED)
		return -1;
	if (dur == KFT_DUR_WATCH)
		return -2;
	if (!(dur & 0x80000000U))
		return dur;
	return (int64_t)((uint64_t)(dur & 0x03ffffffU) << ((dur >> 26) & 0x1f));
}

#endif
