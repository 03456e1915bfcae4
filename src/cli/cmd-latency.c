// SPDX-License-Identifier: GPL-2.0-only
/* kft latency: a function's worst case, as ftrace's latency tracers showed it. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../views/latency.h"
#include "cli.h"

static const char usage[] =
	"usage: kft latency [-n N] [DIR] FUNC\n"
	"       kft latency --wakeup [-n N] [DIR]\n"
	"\n"
	"The longest call of FUNC in the trace in DIR (default kft.data), as\n"
	"ftrace's latency tracers kept their worst case: the latency_trace layout,\n"
	"a header with the latency (usec), the task and where it started and\n"
	"ended, then every call that began during it, on its thread and on the\n"
	"others, with the time since its start and the delay marks (+ over 1 us\n"
	"to the next line, ! over 100 us).\n"
	"\n"
	"  --wakeup       the worst wakeup latency of a kernel trace instead (from\n"
	"                 sched_wakeup to the task's switch in, as ftrace's wakeup\n"
	"                 tracer kept it), with what ran meanwhile\n"
	"  -n N           at most N lines of calls (default 1000)\n"
	"  --no-demangle  C++ names as the symbol table has them\n";

int cmd_latency(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "no-demangle", no_argument, NULL, 'D' },
		{ "wakeup", no_argument, NULL, 'W' },
		{ NULL, 0, NULL, 0 },
	};
	bool wakeup = false;
	const char *dir = KFT_DEFAULT_DIR, *func;
	struct kft_symbolizer *sz;
	struct kft_error err;
	struct kft_trace tr;
	long limit = 1000;
	char *end;
	int c, ret;

	if (wants_help(argc, argv, usage))
		return 0;
	while ((c = getopt_long(argc, argv, "n:", longopts, NULL)) != -1) {
		if (c == 'n') {
			limit = strtol(optarg, &end, 10);
			if (!*optarg || *end || limit < 1)
				return fail("latency: -n: '%s' is not a number of lines", optarg);
		} else if (c == 'D') {
			cli_no_demangle = true;
		} else if (c == 'W') {
			wakeup = true;
		} else {
			fputs(usage, stderr);
			return 2;
		}
	}
	if (wakeup) {
		if (argc - optind > 1)
			return fail("latency: --wakeup takes a trace directory at most");
		if (argc - optind == 1)
			dir = argv[optind];
		func = NULL;
	} else if (argc - optind == 2) {
		dir = argv[optind];
		func = argv[optind + 1];
	} else if (argc - optind == 1) {
		func = argv[optind];
	} else {
		return fail("latency: which function? (see kft latency -h)");
	}
	if (open_trace(dir, true, &tr, &sz))
		return 1;
	ret = func ? kft_view_latency(stdout, &tr, sz, func, (size_t)limit, &err)
		   : kft_view_wakeup_latency(stdout, &tr, sz, (size_t)limit, &err);
	close_trace(&tr, sz);
	return ret ? fail("%s", err.msg) : 0;
}
