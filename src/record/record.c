// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../format/control.h"
#include "attach.h"
#include "auto-args.h"
#include "hooked-funcs.h"
#include "kernel-run.h"
#include "launch.h"
#include "libraries.h"
#include "patch-plan.h"
#include "plan-notes.h"
#include "program-check.h"
#include "record.h"
#include "run.h"

#define LATENCY_RING (1 << 20)	/* --latency: calls a thread's ring holds */

int kft_record_opts_check(const struct kft_record_opts *o, struct kft_error *err)
{
	if (o->irqs && !o->kernel)
		return kft_error_set(err, "record: --irqs goes with --kernel");
	if (o->latency && (o->kernel || o->pid))
		return kft_error_set(err, "record: --latency goes with a program kft starts");
	if ((o->libcalls || o->auto_args) && o->kernel)
		return kft_error_set(err, "record: %s goes with a program, not --kernel",
				     o->libcalls ? "--libcalls" : "-a");
	if (o->nlibs && (o->kernel || o->no_check))
		return kft_error_set(err, "record: --lib goes with a program, checked");
	if (o->pid && (o->kernel || o->compensate || o->argc))
		return kft_error_set(err, "record: -p takes no program, --kernel or --compensate");
	return 0;
}

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* --lib's libraries of prog (running as pid, or 0: to start), into libs. */
static int choose_libs(const struct kft_record_opts *o, const char *prog, pid_t pid,
		       struct kft_lib_list *libs, struct kft_error *err)
{
	char runtime[PATH_MAX];
	struct kft_lib_list all = { 0 };
	int ret;

	memset(libs, 0, sizeof(*libs));
	if (!o->nlibs)
		return 0;
	ret = kft_launch_find_runtime(runtime, sizeof(runtime), err) ||
	      (pid ? kft_libraries_mapped(pid, prog, &all, err) : kft_libraries_of(prog, &all, err)) ||
	      kft_libraries_chosen(&all, prog, !pid, runtime, o->libs, o->nlibs, libs, err);
	kft_lib_list_free(&all);
	return ret ? -1 : 0;
}

/* The program of process pid (as text) into exe, checked and planned as
 * one to start is. */
static int attach_plan(const struct kft_record_opts *o, struct kft_config *cfg, long pid,
		       const char *exe, const struct kft_record_hooks *h,
		       struct kft_patch_plans *plans, struct kft_lib_list *libs,
		       struct kft_error *err)
{
	struct kft_hook_needs needs = { cfg, NULL };
	bool plain = false;

	if (choose_libs(o, exe, (pid_t)pid, libs, err) ||
	    (!o->no_check &&
	     kft_record_check_program(exe, cfg, o->config ? o->config : "config", o->libcalls,
				      o->libcalls_all, libs, &plain, h->notes, err)) ||
	    (o->auto_args &&
	     kft_auto_args(cfg, exe, o->libcalls, o->libcalls_all, h->notes, err)) ||
	    kft_patch_plans_make(exe, plain, libs, &needs, plans, err) ||
	    kft_attach_begin((pid_t)pid, exe, o->dir, cfg, cfg->prime || !o->no_prime,
			     (o->no_compress ? KFT_MODE_NO_COMPRESS : 0) |
				     (o->libcalls ? KFT_MODE_LIBCALLS : 0) |
				     (o->libcalls_all ? KFT_MODE_LIBCALLS_ALL : 0),
			     o->max_size, plans, err) ||
	    kft_auto_args_enums(cfg, exe, o->dir, h->notes, err))
		return -1;
	kft_plan_notes(h->notes, plans, exe, libs, "as kft attaches", o->dynamic_report);
	return 0;
}

/* kft record -p: the process traced until Ctrl-C (or SIGTERM) or the
 * run's end, then let go. */
static int attach(const struct kft_record_opts *o, struct kft_config *cfg,
		  const struct kft_record_hooks *h, int *status, struct kft_error *err)
{
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	struct kft_patch_plans plans = { 0 };
	struct kft_lib_list libs = { 0 };
	enum kft_attach_end how;
	char path[64], exe[PATH_MAX], line[PATH_MAX + 4200];
	char *end;
	long pid = strtol(o->pid, &end, 10);
	ssize_t n;
	int ret = -1;

	if (!*o->pid || *end || pid <= 0 || pid > INT32_MAX)
		return kft_error_set(err, "record: -p %s: not a process id", o->pid);
	snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	if (n < 0 && errno == ENOENT)
		return kft_error_set(err, "no process %ld", pid);
	if (n < 0)
		return kft_error_set(err, "process %ld: its program cannot be read (%s): only its "
				     "owner, or root, may trace it", pid, strerror(errno));
	exe[n] = '\0';
	if (attach_plan(o, cfg, pid, exe, h, &plans, &libs, err))
		goto out;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	snprintf(line, sizeof(line), "tracing process %ld (%s) into %s; Ctrl-C to stop", pid, exe,
		 o->dir);
	h->say(h->ctx, line);
	how = kft_attach_follow((pid_t)pid, exe, o->dir, &interrupted, err);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (how == KFT_ATTACH_FAILED || how == KFT_ATTACH_DETACHING)
		h->say(h->ctx, err->msg);	/* (the trace is finished all the same) */
	h->finish(h->ctx, o->dir, false, false);
	if (how == KFT_ATTACH_DETACHED) {
		snprintf(line, sizeof(line), "process %ld runs on untraced; the trace is in %s", pid,
			 o->dir);
		h->say(h->ctx, line);
	}
	*status = how == KFT_ATTACH_FAILED;
	ret = 0;
out:
	kft_patch_plans_free(&plans);
	kft_lib_list_free(&libs);
	return ret;
}

/* A program the run started after its first, planned as it started
 * (plan-server.c): said as the first was. */
struct started {
	FILE *notes;
	bool report;		/* --dynamic-report */
};

static void said_started(void *ctx, const struct kft_patch_plan *plan)
{
	const struct started *st = ctx;

	kft_plan_note(st->notes, plan, plan->path, false, "as it loads", st->report);
}

/* The program checked, planned and run; its trace finished. */
static int run_program(struct kft_record_opts *o, struct kft_config *cfg,
		       const struct kft_record_hooks *h, int *status, struct kft_error *err)
{
	struct kft_patch_plans plans = { 0 };
	struct kft_lib_list libs = { 0 };
	struct kft_hook_needs needs = { cfg, o->latency };
	struct kft_record_end end = { 0 };
	struct kft_record_run run = { 0 };
	struct kft_selections *sel = &o->sel;
	struct started started = { h->notes, o->dynamic_report };
	bool plain = false;
	char prog[PATH_MAX];
	int ret = -1, found;

	if ((found = kft_launch_find_program(o->argv[0], prog, sizeof(prog), err))) {
		*status = found;	/* 126 or 127, as a shell says it */
		return -1;
	}
	if (choose_libs(o, prog, 0, &libs, err) ||
	    (!o->no_check &&
	     (kft_record_check_program(prog, cfg, o->config ? o->config : "config", o->libcalls,
				       o->libcalls_all, &libs, &plain, h->notes, err) ||
	      (o->latency && kft_record_check_latency_func(prog, o->latency, err)))) ||
	    (sel->nargs && cfg->args.n >= sel->nargs &&
	     kft_auto_args_bare(cfg, cfg->args.n - sel->nargs, sel->args, sel->args_ret,
				sel->nargs, prog, h->notes, err)) ||
	    (o->auto_args &&
	     kft_auto_args(cfg, prog, o->libcalls, o->libcalls_all, h->notes, err)) ||
	    kft_patch_plans_make(prog, plain, &libs, &needs, &plans, err))
		goto out;
	kft_plan_notes(h->notes, &plans, o->argv[0], &libs, "as it loads", o->dynamic_report);
	run = (struct kft_record_run){
		.cfg = cfg, .prog = prog, .argc = o->argc, .argv = o->argv, .dir = o->dir,
		.primed = cfg->prime || !o->no_prime,
		.mode = (o->compensate ? KFT_MODE_COMPENSATE : 0) |
			(o->no_compress ? KFT_MODE_NO_COMPRESS : 0) |
			(o->libcalls ? KFT_MODE_LIBCALLS : 0) |
			(o->libcalls_all ? KFT_MODE_LIBCALLS_ALL : 0),
		.max_size = o->max_size, .switches = !o->no_switches, .no_wait = o->no_wait,
		.latency = o->latency, .plans = &plans, .needs = &needs,
		.said = said_started, .said_ctx = &started,
	};
	if (kft_record_program(&run, &end, h->notes, err))
		goto out;
	*status = end.status;
	ret = 0;
	if (!end.trace_kept)
		goto out;
	/* with --no-compress, the files are still cut down to what they hold */
	h->finish(h->ctx, o->dir, true, o->no_compress);
	if (end.latency_copy)
		h->finish(h->ctx, end.latency_copy, false, false);
out:
	kft_patch_plans_free(&plans);
	kft_lib_list_free(&libs);
	free(end.latency_copy);
	return ret;
}

int kft_record(struct kft_record_opts *o, const struct kft_record_hooks *h, int *status,
	       struct kft_error *err)
{
	struct kft_config cfg;
	int ret;

	*status = 1;
	if (kft_launch_check_environment(err))
		return -1;
	kft_config_init(&cfg);
	if (o->config && kft_config_load(&cfg, o->config, err))
		return -1;
	/* the config's libcalls, as --libcalls says it, unless --no-libcalls */
	o->libcalls = !o->no_libcalls && (o->libcalls || cfg.libcalls);
	o->libcalls_all = o->libcalls && (o->libcalls_all || cfg.libcalls_all);
	if (o->libcalls && o->kernel) {
		kft_config_release(&cfg);
		return kft_error_set(err, "record: %s: libcalls goes with a program, not --kernel",
				     o->config);
	}
	if (kft_selections_apply(&cfg, &o->sel, err)) {
		kft_config_release(&cfg);
		return -1;
	}
	if (o->kernel) {
		struct kft_kernel_run r = { .cfg = &cfg, .config = o->config, .dir = o->dir,
					    .compensate = o->compensate, .irqs = o->irqs,
					    .switches = !o->no_switches, .argc = o->argc,
					    .argv = o->argv, .say = h->say, .ctx = h->ctx };

		/* (cfg released) */
		return kft_kernel_run(&r, status, err) ? (*status = 1, -1) : 0;
	}
	if (o->pid) {
		ret = attach(o, &cfg, h, status, err);
	} else {
		if (o->latency) {
			/* rings: the trace keeps the latest calls, the copy the worst */
			cfg.overwrite = true;
			if (!cfg.logentries_set)
				cfg.logentries = LATENCY_RING;
		}
		ret = run_program(o, &cfg, h, status, err);
	}
	kft_config_release(&cfg);
	return ret;
}
