/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A program built without instrumentation: which of its functions can
 * have their entries patched safely, and how (format/patch-plan.h), with
 * the reason for each that cannot. Decoded with Zydis.
 */
#ifndef KFT_RECORD_PATCH_PLAN_H
#define KFT_RECORD_PATCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/error.h"
#include "../format/patch-plan.h"

struct kft_plan_skip {
	char *name;
	uint64_t addr;
	const char *why;
	bool part;		/* none of the program's functions: the C
				 * runtime's, a cold part */
};

struct kft_patch_plan {
	char path[4096];		/* the program, resolved */
	bool instrumented;		/* not planned: it calls the hooks itself */
	uint64_t file_size;
	size_t nunhooked;		/* functions the run needs no hooks in */
	struct kft_plan_func *funcs;	/* patchable, by address */
	size_t nfuncs, funcs_cap;
	struct kft_plan_caller *callers;	/* branches to the by_callers ones */
	size_t ncallers, callers_cap;
	struct kft_plan_skip *skips;	/* not, with why */
	size_t nskips, skips_cap;
	size_t nparts;			/* of them, code that is none of the program's
					 * functions: the C runtime's, cold parts */
};

/* What a run patches: the program built without instrumentation, then
 * the libraries kft record --lib names. */
struct kft_patch_plans {
	struct kft_patch_plan *v;
	size_t n;
	bool program;		/* v[0] is the program's */
};

struct kft_hook_needs;
struct kft_lib_list;
/* The plans of prog, if plain, and of each of libs (or NULL), into out
 * (kft_patch_plans_free it, whatever came). 0, or -1 with err. */
int kft_patch_plans_make(const char *prog, bool plain, const struct kft_lib_list *libs,
			 const struct kft_hook_needs *needs, struct kft_patch_plans *out,
			 struct kft_error *err);
void kft_patch_plans_free(struct kft_patch_plans *plans);

/* Plan the patching of path's functions: those needs asks hooks for (all
 * with needs NULL). 0, or -1 with err. */
int kft_patch_plan_make(struct kft_patch_plan *plan, const char *path,
			const struct kft_hook_needs *needs, struct kft_error *err);
/* Leave out of plan the functions whose first instructions, those the
 * jmp replaces, hold one of the n link-time addresses at[] past their
 * start (where a thread is stopped: it would resume inside the jmp),
 * each said with why. 0, or -1: out of memory. */
int kft_patch_plan_leave_out(struct kft_patch_plan *plan, const uint64_t *at, size_t n,
			     const char *why);
/* Write the n plans (a program's and its libraries', the programs it
 * starts') as KFT_PLAN_FILE in the trace directory dir, replacing it
 * whole. */
int kft_patch_plan_write(const struct kft_patch_plan *plans, size_t n, const char *dir,
			 struct kft_error *err);
void kft_patch_plan_free(struct kft_patch_plan *plan);

#endif
