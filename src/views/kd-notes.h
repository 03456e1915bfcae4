/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What kd's call trees (-c) show between the calls, as ftrace's
 * function_graph shows comments: the markers a thread made (kft_printf,
 * kft_mark) and, with --switches, where it left the CPU and for how long;
 * each inside the calls open at that moment. The notes are taken from the
 * trace before it is closed, so a tree streamed or kept on disk
 * shows the same ones at the same places (kd-rows.c places them).
 */
#ifndef KFT_VIEW_KD_NOTES_H
#define KFT_VIEW_KD_NOTES_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/error.h"
#include "../format/reader.h"

struct kft_kd_note {
	int64_t ns;		/* since the trace's base, as a node's entry_ns */
	int64_t off_ns;		/* off the CPU this long; -1: a marker */
	uint32_t tid;
	uint32_t mark;		/* a marker's index in marks */
	bool preempted;
};

/* A thread's notes, in time order, and how far they are printed. */
struct kft_kd_note_thread {
	uint32_t tid;
	size_t first, n, next;
	bool has_calls;		/* a tree showed a call of the thread */
};

struct kft_kd_notes {
	struct kft_kd_note *notes;	/* thread by thread, each in time order */
	size_t n;
	struct kft_kd_note_thread *threads;	/* by tid */
	size_t nthreads;
	struct kft_mark *marks;		/* a copy of the trace's */
	size_t nmarks;
};

/* The trace's markers, and its off-CPU spans if switches; 0, or -1 with
 * err set. Free with kft_kd_notes_free. */
int kft_kd_notes_take(struct kft_kd_notes *kn, const struct kft_trace *tr, bool switches,
		      struct kft_error *err);
void kft_kd_notes_free(struct kft_kd_notes *kn);
/* Thread tid's notes, or NULL. */
struct kft_kd_note_thread *kft_kd_notes_thread(struct kft_kd_notes *kn, uint32_t tid);

#endif
