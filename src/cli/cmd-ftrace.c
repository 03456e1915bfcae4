// SPDX-License-Identifier: GPL-2.0-only
/* kft ftrace: the trace in ftrace's function_graph, function or
 * latency_trace layout. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../views/views.h"
#include "cli.h"

static const char usage[] =
	"usage: kft ftrace [-t function_graph|function|latency] [-O OPTIONS] [--switches] [DIR]\n"
	"\n"
	"Print the trace in DIR (default kft.data) as ftrace's `trace` file shows\n"
	"it, one thread after another.\n"
	"\n"
	"  -t, --tracer function_graph   a call tree: 'f() {' ... '}' with the\n"
	"                                duration of each call (the default);\n"
	"                                + ! # * @ $ mark calls over 10 us,\n"
	"                                100 us, 1 ms, 10 ms, 100 ms, 1 s\n"
	"  -t, --tracer function         one line per call, as ftrace's function\n"
	"                                tracer: 'comm-TID [cpu] seconds: func <-caller'\n"
	"                                (the CPU from the context switches; ?? when\n"
	"                                none were recorded)\n"
	"  -t, --tracer latency          the function tracer's latency_trace: flag\n"
	"                                columns (CPU#, irqs-off, need-resched,\n"
	"                                hardirq/softirq, preempt-depth; '.' where\n"
	"                                not known), usecs from the first call,\n"
	"                                delay marks (+ over 1 us, ! over 100 us)\n"
	"  -O, --options OPT[,OPT...]    iter_ctrl's options, 'no' in front to turn\n"
	"                                one off: print-parent (on), sym-offset,\n"
	"                                sym-addr, raw, hex (function), verbose\n"
	"                                (latency)\n"
	"      --switches                where each thread left the CPU and for how\n"
	"                                long (from the context switches kft record\n"
	"                                records): function_graph comments inside\n"
	"                                the calls then open, or the sched_switch\n"
	"                                tracer's lines, 'TID:PRIO:STATE ==>\n"
	"                                TID:PRIO:STATE' (the task leaving, the one\n"
	"                                coming in) and wakeups 'WAKER:PRIO:R +\n"
	"                                TID:PRIO:STATE'; '?' where not known\n"
	"      --no-demangle             C++ and Rust names as the symbol table has them\n";

int kft_cmd_ftrace(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "tracer", required_argument, NULL, 't' },
		{ "options", required_argument, NULL, 'O' },
		{ "no-demangle", no_argument, NULL, 'D' },
		{ "switches", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kft_ftrace_opts o;
	struct kft_symbolizer *sz;
	struct kft_error err;
	struct kft_trace tr;
	int c, ret = 1;

	if (kft_cli_wants_help(argc, argv, usage))
		return 0;
	kft_ftrace_opts_init(&o);
	while ((c = getopt_long(argc, argv, "t:O:", longopts, NULL)) != -1) {
		if (c == 't' && !strcmp(optarg, "function_graph"))
			o.tracer = KFT_FTRACE_GRAPH;
		else if (c == 't' && !strcmp(optarg, "function"))
			o.tracer = KFT_FTRACE_FUNCTION;
		else if (c == 't' && (!strcmp(optarg, "latency") || !strcmp(optarg, "latency_trace")))
			o.tracer = KFT_FTRACE_LATENCY;
		else if (c == 'D')
			kft_cli_no_demangle = true;
		else if (c == 'S')
			o.switches = true;
		else if (c == 't')
			return kft_cli_fail("ftrace: unknown tracer '%s' (function_graph, function "
					    "or "
					    "latency)",
					    optarg);
		else if (c == 'O') {
			char *list = optarg, *word;

			while ((word = strsep(&list, ",")))
				if (*word && kft_ftrace_opts_set(&o, word))
					return kft_cli_fail("ftrace: -O: unknown option '%s' "
							    "(print-parent, "
							    "sym-offset, sym-addr, raw, hex, "
							    "verbose; "
							    "'no' in front turns one off)",
							    word);
		} else {
			kft_cli_usage_error(usage);
			return 2;
		}
	}
	if (argc - optind > 1)
		return kft_cli_fail("ftrace: one trace directory at most");
	if (kft_cli_open_trace(optind < argc ? argv[optind] : KFT_DEFAULT_DIR, false, &tr, &sz))
		return 1;
	if (o.switches && !tr.switches.present)
		fprintf(stderr, "kft: ftrace: %s has no context switches (recorded with "
			"--no-switches, or the kernel refused them)\n", tr.dir);
	if (kft_view_ftrace(stdout, &tr, sz, &o, &err))
		kft_cli_fail("%s", err.msg);
	else
		ret = 0;
	kft_cli_close_trace(&tr, sz);
	return ret;
}
