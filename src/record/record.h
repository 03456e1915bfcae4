/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kft record's options, parsed, and the one step that carries them out:
 * the config loaded and the selections added to it, then the program
 * checked (program-check.c), planned (patch-plan.c) and run (run.c), a
 * running process attached to (attach.c), or the kernel traced
 * (kernel-run.c). The trace's finishing (its names saved, what it lost
 * said, its records compressed) is the caller's, through a hook.
 */
#ifndef KFT_RECORD_RECORD_H
#define KFT_RECORD_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../common/error.h"
#include "kernel-steps.h"
#include "selections.h"

#define KFT_RECORD_LIBS_MAX 64	/* --lib */

struct kft_record_opts {
	const char *config;	/* -c, or NULL */
	const char *dir;	/* -o */
	int no_prime, no_check, compensate, no_compress, no_switches, no_wait;
	int no_libcalls, irqs, kernel, dynamic_report, auto_args;
	bool libcalls, libcalls_all;	/* --libcalls[=all] */
	char *libs[KFT_RECORD_LIBS_MAX];	/* --lib */
	size_t nlibs;
	const char *pid;	/* -p: attach to it */
	const char *latency;	/* --latency: keep its longest call */
	uint64_t max_size;	/* --max-size, or 0 */
	struct kft_selections sel;	/* -F, -N, -G, -A, -R, -D, --cpus */
	int argc;		/* the program and its arguments */
	char **argv;
};

struct kft_record_hooks {
	FILE *notes;		/* notes on the way (plans, checks, arguments) */
	kft_say_fn say;		/* a line: a note, or an error that ends nothing */
	/* the run has ended and left its trace in dir: finish it (with
	 * compress, its records compressed; raw_only: cut down only) */
	void (*finish)(void *ctx, const char *dir, bool compress, bool raw_only);
	void *ctx;
};

/* The options whose combinations make no sense: 0, or -1 with err
 * saying which. */
int kft_record_opts_check(const struct kft_record_opts *o, struct kft_error *err);

/* kft record with o. *status: kft's exit status (the program's, 128 + N
 * when signal N ended it); -1 with err set (and *status 1, or 126/127
 * for a program that cannot be run) when it could not be done. */
int kft_record(struct kft_record_opts *o, const struct kft_record_hooks *h, int *status,
	       struct kft_error *err);

#endif
