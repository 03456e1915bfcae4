// SPDX-License-Identifier: GPL-2.0-only
/*
 * kft record --kernel: arm ftrace for the config, run CMD (or wait for
 * Ctrl-C or the stop trigger), turn ftrace's records into the trace,
 * and put every tracefs setting back, whatever happens in between.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../symbols/elf-symtab.h"
#include "cli.h"
#include "../kernel/session.h"
#include "../record/launch.h"

static bool instrumented(const char *path)
{
	struct kft_elf elf;
	bool yes;

	if (kft_elf_open(&elf, path, NULL))
		return false;
	yes = elf.instrumented && elf.has_interp;
	kft_elf_close(&elf);
	return yes;
}

static int write_kernel_info(const char *dir, int argc, char **argv, const struct kft_kernel *k,
			     const char *status)
{
	struct kft_error err;
	struct utsname u;
	char text[512];

	uname(&u);
	snprintf(text, sizeof(text), "kernel = %s\ntracer = %s\n%s", u.release,
		 k->graph ? "function_graph" : "function (entries only: no function_graph)",
		 status);
	return kft_cli_said(kft_trace_dir_write_info(dir, argc, argv, text, &err), &err);
}

/* The kernel session's steps that have something to say besides their
 * errors; `kft kernel` takes them too. */
void kft_cli_kernel_said(const struct kft_kernel_result *res, const char *dir, bool since_boot)
{
	char text[512];

	kft_kernel_result_text(res, dir, since_boot, text, sizeof(text));
	fprintf(stderr, "kft: %s\n", text);
}

int kft_cli_kernel_take(void)
{
	struct kft_error err;
	pid_t left = 0;

	if (kft_cli_said(kft_kernel_session_take(&left, &err), &err))
		return 1;
	if (left)
		fprintf(stderr, "kft: restored the tracing settings a kft (pid %d) left behind\n",
			(int)left);
	return 0;
}

int kft_cli_kernel_finish(struct kft_kernel *k, const char *dir, const struct kft_config *cfg,
			  bool by_trigger)
{
	struct kft_kernel_result res;
	struct kft_error err;

	if (kft_cli_said(kft_kernel_session_finish(k, dir, cfg, by_trigger, &res, &err), &err))
		return 1;
	kft_cli_kernel_said(&res, dir, false);
	return 0;
}

/* Wait for the child (or, without one, for the run to end); signals
 * that would end kft are noted and end the wait instead. */
static int wait_run(struct kft_kernel *k, const struct kft_config *cfg, pid_t child,
		    const sigset_t *sigs, int *wstatus, bool *by_trigger)
{
	struct kft_kernel_timers timers;
	int forwarded = 0;

	kft_kernel_timers_init(&timers, cfg, kft_mono_now_ns());
	for (;;) {
		struct timespec tick = { 0, 20 * 1000 * 1000 };
		siginfo_t si;
		int sig = sigtimedwait(sigs, &si, &tick);

		if (kft_kernel_timers_poll(&timers, k, cfg) && child <= 0) {
			*by_trigger = true;
			return 0;
		}
		if (child > 0 && waitpid(child, wstatus, WNOHANG) == child)
			return 0;
		if (sig <= 0 || sig == SIGCHLD)
			continue;
		if (child <= 0)
			return 0;	/* Ctrl-C ends a system-wide trace */
		/* CMD got Ctrl-C from the terminal too; pass the others on,
		 * and after a second one stop waiting for it */
		if (sig != SIGINT)
			kill(child, sig);
		if (++forwarded > 1) {
			kill(child, SIGKILL);
			waitpid(child, wstatus, 0);
			return 0;
		}
	}
}

int kft_cli_record_kernel(struct kft_config *loaded, const char *config, const char *dir,
			  bool compensate, bool irqs, bool switches, int argc, char **argv)
{
	struct kft_error err;
	struct kft_kernel k;
	struct kft_config cfg = *loaded;	/* ours to release */
	char prog[PATH_MAX], runtime[PATH_MAX], status[160];
	sigset_t sigs, old;
	int gate[2] = { -1, -1 }, wstatus = 0, ret = 1;
	bool by_trigger = false, armed = false, with_runtime;
	pid_t child = 0;

	cfg.irq_events = irqs;
	cfg.switch_events = switches;
	if (argc && kft_cli_said(kft_launch_find_program(argv[0], prog, sizeof(prog), &err), &err))
		goto out_cfg;
	if (kft_cli_said(kft_kernel_session_check(&k, &cfg, config ? config : "config", &err),
			 &err))
		goto out_cfg;
	/* CMD's own calls too, when it is instrumented */
	with_runtime = argc && instrumented(prog);
	if (with_runtime &&
	    kft_cli_said(kft_launch_find_runtime(runtime, sizeof(runtime), &err), &err))
		goto out;
	/* Ctrl-C and friends from here on are handled, not fatal: the
	 * kernel must get its settings back */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	sigaddset(&sigs, SIGQUIT);
	sigaddset(&sigs, SIGCHLD);
	sigprocmask(SIG_BLOCK, &sigs, &old);
	/* the config is the kernel's; CMD's own calls are all recorded */
	if (kft_cli_kernel_take() || kft_cli_said(kft_trace_dir_prepare(dir, &err), &err) ||
	    kft_cli_said(kft_trace_dir_write_run(dir, &cfg, true,
						 compensate ? KFT_MODE_COMPENSATE : 0, 0, &err),
			 &err) ||
	    kft_cli_said(kft_trace_dir_write(dir, "user-config", "begin\nend\n", 10, &err), &err) ||
	    write_kernel_info(dir, argc, argv, &k, "status = running\n"))
		goto out_sig;
	/* one clock for both sides: the kernel's is CLOCK_MONOTONIC */
	setenv("KFT_CLOCK", "monotonic", 0);
	if (argc) {
		if (pipe(gate)) {
			kft_cli_fail("pipe: %s", strerror(errno));
			goto out_sig;
		}
		child = kft_launch(prog, argv, with_runtime ? runtime : NULL, dir, gate, &err);
		close(gate[0]);
		if (child < 0) {
			kft_cli_said(-1, &err);
			goto out_sig;
		}
	}
	if (kft_cli_said(kft_kernel_session_arm(&k, &cfg, child, getpid(), &err), &err))
		goto out_child;
	armed = true;
	if (child > 0) {
		if (write(gate[1], "g", 1) != 1)
			kft_cli_fail("cannot start %s", argv[0]);
	} else {
		fprintf(stderr, "kft: tracing the kernel%s; Ctrl-C to stop\n",
			cfg.stop.type != KFT_TRIGGER_NONE ? " until the stop trigger" : "");
	}
	close(gate[1]);
	gate[1] = -1;
	wait_run(&k, &cfg, child, &sigs, &wstatus, &by_trigger);
	child = 0;
	ret = kft_cli_kernel_finish(&k, dir, &cfg, by_trigger);
	armed = false;
	if (argc && WIFSIGNALED(wstatus)) {
		snprintf(status, sizeof(status), "status = killed by signal %d\n",
			 WTERMSIG(wstatus));
		if (!ret)
			ret = 128 + WTERMSIG(wstatus);
	} else {
		snprintf(status, sizeof(status), "status = %s %d\n", argc ? "exited" : "stopped",
			 argc ? WEXITSTATUS(wstatus) : 0);
		if (!ret && argc)
			ret = WEXITSTATUS(wstatus);
	}
	write_kernel_info(dir, argc, argv, &k, status);
out_child:
	if (gate[1] >= 0)
		close(gate[1]);	/* an unreleased child exits */
	if (child > 0)
		waitpid(child, NULL, 0);
	if (armed)
		kft_cli_said(kft_kernel_session_restore(&err), &err);
out_sig:
	sigprocmask(SIG_SETMASK, &old, NULL);
out:
	kft_kernel_release(&k);
out_cfg:
	kft_config_release(&cfg);
	return ret;
}
