// SPDX-License-Identifier: GPL-2.0-only
/* kft export: the trace in formats other tools open. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../views/export.h"
#include "cli.h"

static const char usage[] =
	"usage: kft export --perfetto FILE|--chrome FILE|--folded FILE [options] [DIR]\n"
	"\n"
	"Write the trace in DIR (default kft.data) as FILE (- for standard output),\n"
	"reading it as a stream: memory does not grow with the calls.\n"
	"\n"
	"  --perfetto FILE       Perfetto's own trace format (protobuf, compressed):\n"
	"                        processes, threads, coroutines and signal handlers\n"
	"                        as tracks, a slice a call, kernel calls under the\n"
	"                        program calls that made them; opens in\n"
	"                        ui.perfetto.dev and trace_processor. Smallest: a\n"
	"                        few bytes a call\n"
	"  --no-compress         perfetto: packets as they are, not deflated (for\n"
	"                        protoc --decode)\n"
	"  --switches            perfetto: where each thread left the CPU, as slices\n"
	"                        'off CPU: slept' or 'off CPU: preempted' inside the\n"
	"                        calls then open (from kft record's context switches)\n"
	"  --chrome FILE         Chrome's Trace Event Format (JSON): one complete event\n"
	"                        a call, threads and processes named; opens in\n"
	"                        chrome://tracing, ui.perfetto.dev and speedscope\n"
	"  --folded FILE         folded stacks (\"main;a;b 1234\", nanoseconds of real\n"
	"                        time, no sampling): for flamegraph.pl, inferno and\n"
	"                        speedscope\n"
	"  --weight self|total   folded: a stack's own time (the default, what flame\n"
	"                        graph tools add up) or its calls' whole time\n"
	"  --min-duration TIME   leave out calls shorter than TIME (usec, or with a\n"
	"                        unit: 500ns, 20us, 3ms, 1s)\n"
	"  --filter GLOB         only calls of functions matching GLOB (foo*, *bar*);\n"
	"                        may be given again\n"
	"  --notrace GLOB        leave out calls of functions matching GLOB (wins over\n"
	"                        --filter); may be given again\n"
	"  --no-demangle         C++ and Rust names as the symbol table has them\n"
	"\n"
	"A call left out by a filter is as if it was not logged: its calls go under\n"
	"the nearest call kept, whose own time then holds its time.\n";

int kft_cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "perfetto", required_argument, NULL, 'p' },
		{ "no-compress", no_argument, NULL, 'z' },
		{ "switches", no_argument, NULL, 'S' },
		{ "chrome", required_argument, NULL, 'c' },
		{ "folded", required_argument, NULL, 'f' },
		{ "weight", required_argument, NULL, 'w' },
		{ "min-duration", required_argument, NULL, 'm' },
		{ "filter", required_argument, NULL, 'F' },
		{ "notrace", required_argument, NULL, 'N' },
		{ "no-demangle", no_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	const char *only[64], *notrace[64], *file = NULL;
	struct kft_export_opts o = { .only = only, .notrace = notrace, .self = true };
	char format = 0;
	int c;

	if (kft_cli_wants_help(argc, argv, usage))
		return 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
		case 'c':
		case 'f':
			if (format)
				return kft_cli_fail("export: one format at a time (--perfetto, "
						    "--chrome or "
						    "--folded)");
			format = (char)c;
			file = optarg;
			break;
		case 'w':
			if (strcmp(optarg, "self") && strcmp(optarg, "total"))
				return kft_cli_fail("export: --weight: '%s': self or total",
						    optarg);
			o.self = !strcmp(optarg, "self");
			break;
		case 'z':
			o.raw = true;
			break;
		case 'S':
			o.switches = true;
			break;
		default:
			if ((c = kft_cli_export_option(c, &o, only, notrace, "export")) < 0)
				return 1;
			if (c) {
				kft_cli_usage_error(usage);
				return 2;
			}
		}
	}
	if (!format)
		return kft_cli_fail("export: which format? --perfetto FILE, --chrome FILE or "
				    "--folded "
				    "FILE "
				    "(see kft export -h)");
	if (argc - optind > 1)
		return kft_cli_fail("export: one trace directory at most");
	return kft_cli_export_write(file, optind < argc ? argv[optind] : KFT_DEFAULT_DIR, format, &o, NULL);
}
