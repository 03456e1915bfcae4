// SPDX-License-Identifier: GPL-2.0-only
/*
 * kft prime|start|stop, kft tracing on|off: what writing to /proc/kft
 * (and ftrace's tracing_on) did, for a trace whose program is still
 * running, named by its directory or a traced process's PID. The control file is shared memory between
 * the traced processes and us; only its owner may open it for writing.
 */
#include <string.h>

#include "../format/control.h"
#include "../record/target.h"
#include "cli.h"

static const char usage[] =
	"usage: kft prime|start|stop [DIR|PID]\n"
	"       kft tracing on|off [DIR|PID]\n"
	"\n"
	"Drive the run of the trace in DIR (default kft.data), or of the traced\n"
	"process PID, while its program runs, as writing to /proc/kft did:\n"
	"  prime        arm the start trigger (the run starts when it fires)\n"
	"  start        start logging now; no prime needed\n"
	"  stop         stop logging now (calls still open are logged with -1)\n"
	"  tracing off  log no call entered from now on, until `tracing on`, as\n"
	"               ftrace's tracing_on; the run goes on, its triggers wait,\n"
	"               and calls open now are logged when they end\n"
	"  tracing on   log again\n"
	"A PID names the trace its process has open; only the process's owner (or\n"
	"root) may steer it.\n";

int kft_cmd_control(int argc, char **argv)
{
	const char *verb = argv[0] + strlen("kft ");	/* "kft prime" */
	struct kft_control *ctl;
	struct kft_error err;
	char dir[4096];
	int tracing = -1;	/* tracing on|off: 1 or 0 */
	bool done;

	if (kft_cli_wants_help(argc, argv, usage))
		return 0;
	if (!strcmp(verb, "tracing")) {
		if (argc < 2 || (strcmp(argv[1], "on") && strcmp(argv[1], "off")))
			return kft_cli_fail("tracing: usage: kft tracing on|off [DIR|PID]");
		tracing = !strcmp(argv[1], "on");
		argv++;
		argc--;
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-'))
		return kft_cli_fail("%s: usage: kft %s%s [DIR|PID]", verb, verb,
				    tracing < 0 ? ""
				    : tracing	? " on"
						: " off");
	if (kft_cli_said(
		kft_trace_target(argc == 2 ? argv[1] : KFT_DEFAULT_DIR, dir, sizeof(dir), &err),
		&err))
		return 1;
	ctl = kft_map_control(dir, verb, &err);
	if (!ctl)
		return kft_cli_said(-1, &err);
	if (tracing >= 0) {
		done = kft_control_pause(ctl, !tracing);
		kft_unmap_control(ctl);
		if (!done)
			return kft_cli_fail("tracing: already %s", tracing ? "on" : "off");
		return 0;
	}
	if (!strcmp(verb, "prime"))
		done = kft_control_prime(ctl);
	else if (!strcmp(verb, "start"))
		done = kft_control_start(ctl, KFT_HOW_USER, kft_mono_now_ns() - ctl->clock_base_ns, 0, 0, 0);
	else
		done = kft_control_stop(ctl, KFT_HOW_USER, kft_mono_now_ns() - ctl->clock_base_ns, 0, 0, 0);
	kft_unmap_control(ctl);
	if (!done)
		return kft_cli_fail("%s: the run is %s", verb,
				    !strcmp(verb, "stop") ? "already complete"
							  : "already running or complete");
	return 0;
}
