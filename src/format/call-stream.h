/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A trace's calls in the order they were entered, one at a time: the
 * stream every view reads (trace-stream.c; one thread's alone, with its
 * kernel calls joined in: thread-stream.c). Each thread's order comes
 * from its nesting (thread-walk.h, entry-order.h), 12 bytes a call with
 * the Local, kept in a temporary file read in order (common/spill.h);
 * threads are merged by time. A call's depth is its number of logged
 * ancestors, so nesting by depth is exact whatever
 * filters and triggers chose the calls. Where a thread was traced in the
 * program and in the kernel, the kernel's calls go under the program call
 * that made them.
 */
#ifndef KFT_CALL_STREAM_H
#define KFT_CALL_STREAM_H

#include <stddef.h>

#include "reader.h"

struct kft_calls;

/*
 * The calls of the threads listed (indices into tr->threads; NULL: all).
 * Free with kft_calls_close().
 */
struct kft_calls *kft_calls_open(const struct kft_trace *tr, const size_t *threads,
				 size_t nthreads, struct kft_error *err);

/*
 * The same, and before each fork child's own calls the calls it began
 * inside (its parent's, flagged KFT_CALL_INHERITED, unfinished, at the
 * moment of the fork): for views that draw trees, which count them with
 * the parent alone.
 */
struct kft_calls *kft_calls_open_trees(const struct kft_trace *tr, const size_t *threads,
				       size_t nthreads, struct kft_error *err);

/*
 * All the calls, in the same order, but each at depth 0: 4 bytes a call,
 * for views that need no nesting (kft stats' table).
 */
struct kft_calls *kft_calls_open_flat(const struct kft_trace *tr, struct kft_error *err);

/* The next call into *c: 1, or 0 at the end. */
int kft_calls_next(struct kft_calls *cs, struct kft_call *c);

/*
 * The stream's order: call a, at time a_ns (its entry; a stack-watch
 * row's chain time), from source ia, comes before b. Ties go by thread,
 * process image, depth and source.
 */
bool kft_calls_before(const struct kft_call *a, uint64_t a_ns, size_t ia,
		      const struct kft_call *b, uint64_t b_ns, size_t ib);

/* How many calls (and stack-watch rows) the stream holds in all. */
uint64_t kft_calls_total(const struct kft_calls *cs);

void kft_calls_close(struct kft_calls *cs);

/*
 * One thread file's calls, in entry order, each (with locals) with kd's
 * Local: its duration less its finished children's, in ns rounded down
 * to a usec (-1: unfinished). 8 bytes per call, 12 with the Locals, in a
 * temporary file (common/spill.h) once a thread has many calls. A signal
 * handler counts as no child of the call it interrupted. Stack-watch rows
 * come too (dur -2). With inherited, a fork child's inherited calls come
 * first, as kft_calls_open_trees gives them.
 */
struct kft_thread_calls;

/* File th alone. */
struct kft_thread_calls *kft_thread_calls_open(const struct kft_thread_file *th, bool locals,
					       bool inherited, struct kft_error *err);
/*
 * The streams of file i and the files read with it, each into
 * streams[file] (tr->nthreads of them). A thread traced in the kernel too
 * is read whole: each of its program files' streams holds the kernel
 * calls that ran under its calls (the program call that made one is its
 * parent; their time is no part of that call's Local), as kft_calls
 * nests them, its kernel file's stream those before any program call
 * (a second kernel file of one thread stands alone). 0, or -1 with err
 * set.
 */
int kft_thread_calls_open_group(const struct kft_trace *tr, size_t i, bool locals, bool inherited,
				struct kft_thread_calls **streams, struct kft_error *err);
/* The next call without taking it (NULL at the end), and its Local (-1
 * without locals). */
const struct kft_call *kft_thread_calls_peek(const struct kft_thread_calls *tc,
					     int64_t *local_ns);
void kft_thread_calls_skip(struct kft_thread_calls *tc);
/* 0, or -1 with err set when the Locals, kept in a temporary file, could
 * not all be read back (each then read as 0). */
int kft_thread_calls_check(const struct kft_thread_calls *tc, struct kft_error *err);
/* Go back or on to the call of record rec (its index in the program
 * file's records, as kft_thread_rec counts them); the stream then holds
 * that call and what follows it, without stack-watch rows. -1: no such
 * call. */
int kft_thread_calls_seek(struct kft_thread_calls *tc, uint64_t rec);
/* The next call's place in the stream (when it is a call, not a
 * stack-watch row), the place of the call after it, and going back or on
 * to a place told. */
uint64_t kft_thread_calls_tell(const struct kft_thread_calls *tc);
uint64_t kft_thread_calls_tell_next(const struct kft_thread_calls *tc);
void kft_thread_calls_seek_to(struct kft_thread_calls *tc, uint64_t place);
void kft_thread_calls_close(struct kft_thread_calls *tc);

/*
 * The threads as views list them one after another: groups of thread
 * files of one program thread (its kernel file joins it), ordered by
 * process image and thread id. groups[g] is the first index into order[]
 * of group g; groups[ngroups] = tr->nthreads. Free both.
 */
/* How views name a call's thread: "1234", "1234/2" (coroutine 2), "1234i"
 * (signal handler); out holds 24 bytes. */
size_t kft_pid_label(char *out, uint32_t tid, uint32_t coroutine, bool irq);

int kft_calls_thread_groups(const struct kft_trace *tr, size_t **order, size_t **groups,
			    size_t *ngroups, struct kft_error *err);

#endif
