// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/process.h"
#include "../common/tsc-rate.h"
#include "auto-args.h"
#include "latency-keeper.h"
#include "launch.h"
#include "patch-plan.h"
#include "plan-server.h"
#include "run.h"
#include "spares.h"
#include "switch-recorder.h"
#include "trace-dir.h"

/* A step that failed without ending the run: said as the command line
 * says an error. */
static void warn(FILE *notes, int ret, const struct kft_error *err)
{
	if (ret)
		fprintf(notes, "kft: %s\n", err->msg);
}

/* Whether dir is no longer the directory the run began in (st). */
static bool dir_gone(const char *dir, const struct stat *st)
{
	struct stat now;

	return stat(dir, &now) || now.st_dev != st->st_dev || now.st_ino != st->st_ino;
}

/* The directory laid out for the run; the runtime found. */
static int lay_out(const struct kft_record_run *r, char *runtime, size_t size, struct stat *st,
		   FILE *notes, struct kft_error *err)
{
	if (kft_launch_find_runtime(runtime, size, err) || kft_trace_dir_prepare(r->dir, err) ||
	    kft_trace_dir_write_run(r->dir, r->cfg, r->primed, r->mode, r->max_size, err) ||
	    kft_trace_dir_write_info(r->dir, r->argc, r->argv, "status = running\n", err) ||
	    kft_auto_args_enums(r->cfg, r->prog, r->dir, notes, err) ||
	    (r->plans && r->plans->n && kft_patch_plan_write(r->plans->v, r->plans->n, r->dir, err)))
		return -1;
	if (stat(r->dir, st))
		return kft_error_set(err, "%s: %s", r->dir, strerror(errno));
	return 0;
}

static volatile sig_atomic_t stop_waiting;

static void on_stop(int sig)
{
	(void)sig;
	stop_waiting = 1;
}

/* The processes the program left running (kft adopted them: a daemon, a
 * job in the background), listed after what comes before: how many. */
static size_t say_left(FILE *notes, const char *before)
{
	pid_t pids[8];
	size_t n = kft_process_children(getpid(), pids, 8);

	fprintf(notes, "%s%zu process%s (", before, n, n == 1 ? "" : "es");
	for (size_t i = 0; i < n && i < 8; i++)
		fprintf(notes, "%s%d", i ? " " : "pid ", (int)pids[i]);
	fprintf(notes, "%s)", n > 8 ? " ..." : "");
	return n;
}

/*
 * The program has ended, but what it started may not have (a daemon, a
 * job in the background): they write the trace still, and kft adopted
 * them (a subreaper). Wait for each to end, as strace -f does, unless
 * told not to or until Ctrl-C; what is left running keeps writing its
 * own thread files, which kft's finish leaves as they are.
 */
static void wait_left(const struct kft_record_run *r, FILE *notes)
{
	struct sigaction sa = { .sa_handler = on_stop }, old_int, old_term;
	bool said = false;
	size_t n;
	pid_t got;

	/* (no SA_RESTART: the signal ends the wait) */
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	for (;;) {
		got = waitpid(-1, NULL, said ? 0 : WNOHANG);
		if (got > 0)
			continue;
		if (got < 0 && errno == ECHILD)
			break;
		if (got < 0 && errno != EINTR)
			break;
		if (stop_waiting || r->no_wait) {
			n = say_left(notes, "kft: ");
			fprintf(notes, " that %s left running still write%s the trace: read now, "
				"%s part ends where %s (kft status lists what runs)\n",
				r->argv[0], n == 1 ? "s" : "", n == 1 ? "its" : "their",
				n == 1 ? "it is" : "they are");
			break;
		}
		if (!said) {
			n = say_left(notes, "kft: waiting for ");
			fprintf(notes, " that %s left running: %s the trace (Ctrl-C "
				"stops waiting; --no-wait does not wait)\n", r->argv[0],
				n == 1 ? "it writes" : "they write");
			said = true;
		}
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
}

/* The program's end, as kft's status and the trace's info. */
static void ended(const struct kft_record_run *r, int wstatus, struct kft_record_end *end,
		  FILE *notes)
{
	char status[128];
	struct kft_error err;

	end->status = kft_trace_dir_exit_status(wstatus, status, sizeof(status));
	if (WIFSIGNALED(wstatus))
		fprintf(notes, "kft: %s killed by signal %d (%s)%s%s\n", r->argv[0],
			WTERMSIG(wstatus), strsignal(WTERMSIG(wstatus)),
			end->trace_kept ? "; the trace is kept in " : "",
			end->trace_kept ? r->dir : "");
	if (!end->trace_kept) {
		/* nothing to finish, and nothing to write into another's */
		fprintf(notes, "kft: %s: the trace directory was removed or replaced while %s "
			"ran; its trace is lost\n", r->dir, r->argv[0]);
		return;
	}
	warn(notes, kft_trace_dir_write_info(r->dir, r->argc, r->argv, status, &err), &err);
	warn(notes, kft_trace_dir_mark_ended(r->dir, &err), &err);
}

int kft_record_program(const struct kft_record_run *r, struct kft_record_end *end, FILE *notes,
		       struct kft_error *err)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_pipe;
	struct kft_switch_rec *switches = NULL;
	struct kft_latency_keeper *keeper = NULL;
	struct kft_spares *spares;
	struct kft_plan_server *planner;
	unsigned long long lost_switches = 0;
	char runtime[PATH_MAX], why[512] = "";
	struct kft_error later;
	uint64_t clock_base;
	struct stat dir_st;
	int wstatus, gate[2];
	uint64_t tsc0 = 0, tsc0_ns = 0;
	/* (no rate wanted on the clock_gettime clock) */
	bool tsc = kft_tsc_clock(getenv("KFT_CLOCK"));
	pid_t pid;

	memset(end, 0, sizeof(*end));
	end->status = 1;
	/* the TSC's rate for the program's runtime, over the set-up below */
	if (tsc)
		kft_tsc_pair(&tsc0, &tsc0_ns);
	if (lay_out(r, runtime, sizeof(runtime), &dir_st, notes, err))
		return -1;
	/* the programs it starts, planned as they start */
	planner = kft_plan_server_start(r->dir, r->plans, r->needs, r->said, r->said_ctx, &later);
	if (!planner)
		fprintf(notes, "kft: %s; the programs %s starts are traced only if they are "
			"instrumented\n", later.msg, r->argv[0]);
	if (pipe2(gate, O_CLOEXEC)) {
		kft_plan_server_stop(planner);
		return kft_error_set(err, "pipe: %s", strerror(errno));
	}
	/* like system(): Ctrl-C is for the program, we wait for it to end */
	kft_launch_hold_signals();
	/* what the program leaves running becomes kft's to wait for */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	pid = kft_launch(r->prog, r->argv, runtime, r->dir, gate, err);
	close(gate[0]);
	if (pid < 0) {
		prctl(PR_SET_CHILD_SUBREAPER, 0);
		kft_plan_server_stop(planner);
		close(gate[1]);
		kft_launch_release_signals();
		return -1;
	}
	if (r->switches) {
		/* the switches count from the program's exec: open before it */
		switches = kft_switches_start(pid, r->dir, why, sizeof(why));
		if (!switches)
			fprintf(notes, "kft: context switches not recorded: %s; tracing without "
				"them (--no-switches says nothing)\n", why);
	}
	/* (a rate not written: each process measures its own) */
	if (tsc)
		warn(notes, kft_trace_dir_set_tsc_mult(r->dir, kft_tsc_mult_since(tsc0, tsc0_ns),
						       &later), &later);
	/* the run's time counts from here, as the program is let go
	 * (whatever the setup took: time triggers count from it) */
	if (kft_trace_dir_reset_clock(r->dir, &clock_base))
		fprintf(notes, "kft: warning: could not set the trace's clock\n");
	if (switches && kft_switches_begin(switches, clock_base, why, sizeof(why))) {
		fprintf(notes, "kft: context switches not recorded: %s\n", why);
		kft_switches_stop(switches, &lost_switches);
		switches = NULL;
	}
	/* a program killed at the gate must not take kft with it (SIGPIPE) */
	sigaction(SIGPIPE, &ign, &old_pipe);
	if (kft_launch_go(gate[1]))
		fprintf(notes, "kft: could not start %s\n", r->argv[0]);
	sigaction(SIGPIPE, &old_pipe, NULL);
	close(gate[1]);
	spares = kft_spares_start(r->dir);
	if (r->latency) {
		keeper = kft_latency_keeper_start(r->dir, r->latency, &later);
		warn(notes, keeper ? 0 : -1, &later);
	}
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	wait_left(r, notes);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	kft_plan_server_stop(planner);
	kft_spares_stop(spares);
	warn(notes, kft_latency_keeper_stop(keeper, &end->latency_copy, &later), &later);
	kft_switches_stop(switches, &lost_switches);
	if (lost_switches)
		fprintf(notes, "kft: %llu context switches not recorded: the kernel's buffer was "
			"full\n", lost_switches);
	kft_launch_release_signals();
	end->trace_kept = !dir_gone(r->dir, &dir_st);
	ended(r, wstatus, end, notes);
	return 0;
}
