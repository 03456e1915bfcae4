/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading a trace directory back. Every length and offset in the files is
 * checked; a corrupt or truncated file is an error naming it, never a crash.
 * reader.c opens and closes a trace (inherited.c finds what fork children
 * began inside); trace-state.c answers questions about one opened;
 * thread-records.h reads its records.
 */
#ifndef KFT_READER_H
#define KFT_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/error.h"
#include "../config/config.h"
#include "switches.h"
#include "trace-format.h"
#include "zreader.h"

struct kft_enum_defs;

/* One call, as every view sees it, whatever the source. */
struct kft_call {
	uint64_t entry_ns;	/* since the trace's clock base */
	int64_t dur_ns;		/* -1 unfinished, -2 stack watch */
	uint64_t func;
	uint64_t call_site;
	uint32_t depth;
	uint32_t flags;		/* KFT_REC_SIGNAL, KFT_REC_UNWOUND, KFT_CALL_INHERITED */
	uint32_t tid;
	uint32_t pid;
	uint32_t session;
	uint32_t coroutine;	/* 0, or the thread's coroutine stack it ran on */
	uint32_t map_session;	/* the image whose memory map names func and
				 * call_site: session, but the image before
				 * for an exec'd image's inherited calls */
};

struct kft_thread_file {
	char *name;
	struct kft_thread_hdr hdr;	/* copy, checked */
	void *map;
	size_t map_size;
	const struct kft_rec *recs;	/* raw record recs_first + i: recs[i], or
					 * in a ring read in place recs[i & raw_mask] */
	uint64_t recs_first;
	uint64_t raw_mask;
	struct kft_rec *raw_copy;	/* recs, where they were copied (a trace
					 * being compressed gives raw records
					 * back as it packs them), or NULL */
	uint64_t nrecs;			/* valid records */
	const struct kft_site *sites;	/* the sites records name */
	uint64_t nsites;
	uint64_t first;			/* index of the oldest (ring) */
	const struct kft_frame *frames;
	uint64_t nframes;		/* open frames */
	struct kft_frame *frames_copy;	/* frames, copied from a running thread */
	struct kft_zrecs *z;		/* its .kfz, or NULL */
	uint64_t zcount;		/* records [0, zcount) are read from z */
	/* the calls this image began inside (inherited.h), outermost
	 * first: a fork child's parent's (its first rows, KFT_DUR_INHERITED:
	 * first and nrecs count the records after them), or those an exec
	 * replaced (inherited_exec: the image's own depths start from 0
	 * under them). The walk says when they show (thread-walk.h). */
	struct kft_rec_data *inherited;
	uint64_t ninherited;
	bool inherited_exec;
	uint32_t inherited_map;		/* the session whose map names them */
};

struct kft_trace {
	char *dir;
	struct kft_control ctl;
	struct kft_config cfg;
	char *config_text;
	struct kft_thread_file *threads;
	size_t nthreads;
	struct kft_counters totals;	/* summed over threads */
	uint64_t cpus_filtered;		/* calls filter cpus dropped, summed */
	uint64_t max_stack;
	uint32_t max_stack_tid;
	uint64_t nopen;			/* logged calls open at the end */
	char **skipped;			/* why each unreadable thread file was left out */
	size_t nskipped;
	struct kft_zcache *zcache;	/* decompressed frames, for every thread */
	bool held;			/* nothing writes it while it is read
					 * (kft_trace_open_held) */
	bool records_unread;		/* KFT_OPEN_NO_RECORDS */
	struct kft_switches switches;	/* the threads' context switches, if recorded */
	struct kft_mark *marks;		/* the markers, in time order */
	size_t nmarks;
	size_t nargs;			/* calls with saved arguments or return values */
	struct kft_args_file *args_files;	/* the threads' .args files read in
						 * place (args-file.h) */
	size_t nargs_files, args_files_cap;
	struct kft_argrec *args_index;	/* older files' records, indexed (call-args.h) */
	size_t nargs_index;
	unsigned char **args_data;	/* the files they are in */
	size_t nargs_data;
	char *args_error;		/* why a thread's were left out, or NULL */
	uint64_t args_lost;		/* calls whose could not be saved (no room) */
	struct kft_enum_defs *enums;	/* the enums file, or NULL */
	char *switches_error;		/* why they could not be read (then none) */
	char *ended_how;		/* how the program ended, as `kft record` saw it
					 * ("killed by signal 9", "exited 0"), or NULL */
};

/* Frames of compressed records found corrupt (their calls read as
 * naming no function), over every thread. */
uint64_t kft_trace_damaged(const struct kft_trace *tr);

/* The calls every view shows as unfinished (-1): those open at the end,
 * and those a stop or a full log cut short (records of their own). Reads
 * every record. */
uint64_t kft_trace_unfinished(const struct kft_trace *tr);

/* Open dir. Free with kft_trace_close(). A corrupt or truncated thread
 * file is left out, and why is in tr->skipped; it is an error only when
 * no thread file could be read. */
int kft_trace_open(struct kft_trace *tr, const char *dir, struct kft_error *err);
/* How kft_trace_open_as opens a trace. */
enum kft_open_flags {
	/* nothing writes, compresses or cuts it while it is read (kft
	 * record's own reading of it once the program has ended, before it
	 * compresses what is left): the raw records are read where they lie,
	 * not copied first (a copy of a whole log, in a fault a page) */
	KFT_OPEN_HELD = 1,
	/* the view needs no context switches: tr->switches stays empty
	 * (loading them sorts every one) */
	KFT_OPEN_NO_SWITCHES = 2,
	/* the view shows no saved arguments: none are read (opening checks
	 * every record) */
	KFT_OPEN_NO_ARGS = 4,
	/* the caller reads no records, only the threads' headers, sites and
	 * counters (kft record's own reading): the records are not faulted
	 * in ahead, nor the .kfz files opened (the compression of kft
	 * record's finish waits for this reading) */
	KFT_OPEN_NO_RECORDS = 8,
};
int kft_trace_open_as(struct kft_trace *tr, const char *dir, unsigned int flags,
		      struct kft_error *err);
void kft_trace_close(struct kft_trace *tr);

/* Whether th holds kernel calls (from ftrace) rather than the program's. */
bool kft_thread_is_kernel(const struct kft_thread_file *th);

/* Whether a thread was traced both in the program and in the kernel:
 * the call stream (call-stream.h) then nests the kernel's calls under the
 * program's. */
bool kft_trace_mixes_kernel(const struct kft_trace *tr);

/* The time a trace's times count from: its first start mark (0 if it
 * never started). */
uint64_t kft_trace_base_ns(const struct kft_trace *tr);
/* Records still open when the run stopped show up as -1; tell state.
 * A run is complete once stopped, or once its program has ended. */
bool kft_trace_primed(const struct kft_trace *tr);
bool kft_trace_triggered(const struct kft_trace *tr);
bool kft_trace_complete(const struct kft_trace *tr);

#endif
