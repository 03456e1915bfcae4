/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Before a program is traced: whether it can be (an instrumented,
 * dynamically linked ELF program; a script passes, as what it runs is
 * not known) and whether it holds the functions the config names, each
 * error naming the config's file and line. Errors come back as values.
 */
#ifndef KFT_RECORD_PROGRAM_CHECK_H
#define KFT_RECORD_PROGRAM_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "../common/error.h"
#include "../config/config.h"

/* path against cfg (read from cfgname); libcalls: functions that path
 * calls in shared libraries are traced too; libcalls_all: and those its
 * libraries call in each other, which only the run finds (a name found
 * nowhere here is then a note). Code the runtime cannot patch in time is
 * a note too. A function may be in one of libs, the libraries to patch
 * (--lib; or NULL). *plain says whether path has no instrumentation at
 * all (its entries are to be patched: patch-plan.h); with plain NULL,
 * that is an error. 0, or -1 with err. */
struct kft_lib_list;
int kft_record_check_program(const char *path, const struct kft_config *cfg,
			     const char *cfgname, bool libcalls, bool libcalls_all,
			     const struct kft_lib_list *libs, bool *plain, FILE *notes,
			     struct kft_error *err);
/* --latency FUNC: one function that prog holds. 0, or -1 with err. */
int kft_record_check_latency_func(const char *prog, const char *func, struct kft_error *err);

#endif
