/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A program's run under kft record: the trace directory laid out, the
 * program started with the runtime preloaded, its context switches, spare
 * thread files and latency keeper kept while it runs, and its end written
 * into the trace. What is left to do with the trace after (its symbols,
 * what it lost, compressing the rest) is the caller's. Warnings go to
 * notes; errors come back as values.
 */
#ifndef KFT_RECORD_RUN_H
#define KFT_RECORD_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../common/error.h"
#include "../config/config.h"

struct kft_patch_plans;
struct kft_patch_plan;
struct kft_hook_needs;

struct kft_record_run {
	const struct kft_config *cfg;
	const char *prog;	/* the program's path (kft_launch_find_program) */
	int argc;
	char **argv;		/* its arguments, argv[0] as the user named it */
	const char *dir;	/* the trace directory (kft_trace_dir_prepare's rules) */
	bool primed;		/* armed from the start */
	uint32_t mode;		/* KFT_MODE_* */
	uint64_t max_size;	/* --max-size, or 0 */
	bool switches;		/* record its context switches */
	bool no_wait;		/* not for what the program leaves running */
	const char *latency;	/* --latency FUNC, or NULL */
	const struct kft_patch_plans *plans;	/* entries to patch, or NULL */
	/* the programs it starts after are planned for these (each said
	 * to said, with said_ctx, as it is planned) */
	const struct kft_hook_needs *needs;
	void (*said)(void *ctx, const struct kft_patch_plan *plan);
	void *said_ctx;
};

struct kft_record_end {
	int status;		/* kft's exit status: the program's, or 128 + its signal */
	bool trace_kept;	/* the directory is still the run's: finish it */
	char *latency_copy;	/* --latency: the worst call's trace (free it), or NULL */
};

/* Run r to its end. 0 with *end, or -1 with err when the program could
 * not be started (the directory may hold a run that never began). */
int kft_record_program(const struct kft_record_run *r, struct kft_record_end *end, FILE *notes,
		       struct kft_error *err);

#endif
