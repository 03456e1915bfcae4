/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Plans for the programs a run starts after its first: a shell's
 * commands, what make or a test runner runs, what a program exec's or
 * posix_spawn's. Each process image's runtime whose program is not in
 * the plan asks kft record over the trace directory's socket
 * (KFT_PLAN_SOCKET) before its program's first instruction; kft record
 * plans a program built without instrumentation as it planned the first
 * one, adds it to the plan file, and answers. Each file is planned once
 * a run (by its identity: a file rebuilt meanwhile is planned anew).
 */
#ifndef KFT_PLAN_SERVER_H
#define KFT_PLAN_SERVER_H

#include "../common/error.h"
#include "patch-plan.h"

struct kft_hook_needs;
struct kft_plan_server;

/* Called, on the server's thread, for each program planned: what it
 * patches, to be said. */
typedef void (*kft_plan_said)(void *ctx, const struct kft_patch_plan *plan);

/* Serve the trace directory dir, whose plan file holds first (the run's
 * plans so far, kept by the caller until kft_plan_server_stop), each new
 * plan made for needs. NULL with err if the socket could not be made. */
struct kft_plan_server *kft_plan_server_start(const char *dir, const struct kft_patch_plans *first,
					      const struct kft_hook_needs *needs,
					      kft_plan_said said, void *ctx,
					      struct kft_error *err);

/* Stop serving, and remove the socket: a process that asks after this
 * runs its program unpatched. NULL does nothing. */
void kft_plan_server_stop(struct kft_plan_server *s);

#endif
