/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kft record -p on a program built without instrumentation: its
 * functions' entries are patched as at start (runtime/dynamic.c) while
 * every thread is held still, and given back byte for byte on leaving
 * (attach-plain.c).
 */
#ifndef KFT_RECORD_ATTACH_PLAIN_H
#define KFT_RECORD_ATTACH_PLAIN_H

#include <stdint.h>
#include <sys/types.h>

#include "../common/error.h"
#include "patch-plan.h"
#include "stop-threads.h"

/* Hold every thread of process pid still but its main one (held by the
 * caller, at main_pc), leave out of plans the functions a thread is
 * inside the first instructions of, and write them into dir for the
 * runtime. 0 with the threads in *held (release them once the runtime
 * has patched), or -1 with err. */
int kft_attach_plain_prepare(pid_t pid, uint64_t main_pc, struct kft_patch_plans *plans,
			     const char *dir, struct kft_stopped *held, struct kft_error *err);

/* If dir holds a patch plan, put back in process pid every byte the
 * runtime changed by it, every thread held still meanwhile. 0, or -1
 * with err. */
int kft_attach_plain_restore(pid_t pid, const char *dir, struct kft_error *err);

#endif
