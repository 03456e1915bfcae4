// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/mono-clock.h"
#include "../format/trace-format.h"
#include "../kernel/session.h"
#include "../symbols/elf-symtab.h"
#include "kernel-run.h"
#include "kernel-steps.h"
#include "launch.h"
#include "trace-dir.h"

/* A line for the user, as printf would make it. */
static __attribute__((format(printf, 2, 3))) void say(const struct kft_kernel_run *r,
							const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	r->say(r->ctx, line);
}

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

static int write_kernel_info(const struct kft_kernel_run *r, const struct kft_kernel *k,
			     const char *status, struct kft_error *err)
{
	struct utsname u;
	char text[512];

	uname(&u);
	snprintf(text, sizeof(text), "kernel = %s\ntracer = %s\n%s", u.release,
		 k->graph ? "function_graph" : "function (entries only: no function_graph)",
		 status);
	return kft_trace_dir_write_info(r->dir, r->argc, r->argv, text, err);
}

/* The kernel for this session, from a kft that died holding it too. */
/* Wait for the child (or, without one, for the run to end); signals
 * that would end kft are noted and end the wait instead. */
static void wait_run(struct kft_kernel *k, const struct kft_config *cfg, pid_t child,
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
			return;
		}
		if (child > 0 && waitpid(child, wstatus, WNOHANG) == child)
			return;
		if (sig <= 0 || sig == SIGCHLD)
			continue;
		if (child <= 0)
			return;	/* Ctrl-C ends a system-wide trace */
		/* CMD got Ctrl-C from the terminal too; pass the others on,
		 * and after a second one stop waiting for it */
		if (sig != SIGINT)
			kill(child, sig);
		if (++forwarded > 1) {
			kill(child, SIGKILL);
			waitpid(child, wstatus, 0);
			return;
		}
	}
}

/* What ended CMD, for the info file, and kft record's exit status. */
static int ending(const struct kft_kernel_run *r, int wstatus, char *status, size_t size)
{
	if (r->argc)
		return kft_trace_dir_exit_status(wstatus, status, size);
	snprintf(status, size, "status = stopped 0\n");
	return 0;
}

int kft_kernel_run(const struct kft_kernel_run *r, int *status, struct kft_error *err)
{
	struct kft_config *cfg = r->cfg;
	struct kft_kernel_result res;
	struct kft_kernel k;
	struct kft_error later;
	char prog[PATH_MAX], runtime[PATH_MAX], info[160], text[512];
	sigset_t sigs, old;
	int gate[2] = { -1, -1 }, wstatus = 0;
	bool by_trigger = false, armed = false, with_runtime, failed = true;
	pid_t child = 0;

	*status = 1;
	cfg->irq_events = r->irqs;
	cfg->switch_events = r->switches;
	if ((r->argc && kft_launch_find_program(r->argv[0], prog, sizeof(prog), err)) ||
	    kft_kernel_session_check(&k, cfg, r->config ? r->config : "config", err))
		goto out_cfg;
	/* CMD's own calls too, when it is instrumented */
	with_runtime = r->argc && instrumented(prog);
	if (with_runtime && kft_launch_find_runtime(runtime, sizeof(runtime), err))
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
	if (kft_kernel_take_into(r->dir, cfg, r->compensate ? KFT_MODE_COMPENSATE : 0, r->say,
				 r->ctx, err) ||
	    kft_trace_dir_write(r->dir, "user-config", "begin\nend\n", 10, err) ||
	    write_kernel_info(r, &k, "status = running\n", err))
		goto out_sig;
	/* one clock for both sides: the kernel's is CLOCK_MONOTONIC */
	setenv("KFT_CLOCK", "monotonic", 0);
	if (r->argc) {
		if (pipe(gate)) {
			kft_error_set(err, "pipe: %s", strerror(errno));
			goto out_sig;
		}
		child = kft_launch(prog, r->argv, with_runtime ? runtime : NULL, r->dir, gate, err);
		close(gate[0]);
		if (child < 0)
			goto out_sig;
	}
	if (kft_kernel_session_arm(&k, cfg, child, getpid(), err))
		goto out_child;
	armed = true;
	if (child > 0) {
		if (kft_launch_go(gate[1]))
			say(r, "cannot start %s", r->argv[0]);
	} else {
		say(r, "tracing the kernel%s; Ctrl-C to stop",
		    cfg->stop.type != KFT_TRIGGER_NONE ? " until the stop trigger" : "");
	}
	close(gate[1]);
	gate[1] = -1;
	wait_run(&k, cfg, child, &sigs, &wstatus, &by_trigger);
	child = 0;
	failed = kft_kernel_session_finish(&k, r->dir, cfg, by_trigger, &res, err) != 0;
	armed = false;
	if (!failed) {
		kft_kernel_result_text(&res, r->dir, false, text, sizeof(text));
		say(r, "%s", text);
	}
	*status = ending(r, wstatus, info, sizeof(info));
	/* (the trace is whole without it: said, not failed) */
	if (write_kernel_info(r, &k, info, &later))
		say(r, "%s", later.msg);
out_child:
	if (gate[1] >= 0)
		close(gate[1]);	/* an unreleased child exits */
	if (child > 0)
		waitpid(child, NULL, 0);
	if (armed && kft_kernel_session_restore(&later))
		say(r, "%s", later.msg);
out_sig:
	sigprocmask(SIG_SETMASK, &old, NULL);
out:
	kft_kernel_release(&k);
out_cfg:
	kft_config_release(cfg);
	return failed ? -1 : 0;
}
