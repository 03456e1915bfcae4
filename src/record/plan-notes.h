/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What kft record says of the programs and libraries it patches (built
 * without instrumentation, or --lib): how many of their functions, when,
 * and with --dynamic-report which were left alone and why.
 */
#ifndef KFT_RECORD_PLAN_NOTES_H
#define KFT_RECORD_PLAN_NOTES_H

#include <stdbool.h>
#include <stdio.h>

#include "libraries.h"
#include "patch-plan.h"

/* plan's note: of the program name, or of a library (lib); when: "as it
 * loads", "as kft attaches". */
void kft_plan_note(FILE *notes, const struct kft_patch_plan *plan, const char *name, bool lib,
		   const char *when, bool report);

/* Every plan's note: the program's (named name), then libs'. */
void kft_plan_notes(FILE *notes, const struct kft_patch_plans *plans, const char *name,
		    const struct kft_lib_list *libs, const char *when, bool report);

#endif
