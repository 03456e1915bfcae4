// SPDX-License-Identifier: GPL-2.0-only
/* kft log: the trace in the /proc/kft_data layout. */
#include <getopt.h>
#include <stdio.h>

#include "../views/views.h"
#include "cli.h"

static const char usage[] =
	"usage: kft log [--raw] [--ns] [DIR]\n"
	"\n"
	"Print the trace in DIR (default kft.data) in the layout of KFT's\n"
	"/proc/kft_data: header, trigger marks, filter counters, then one row per\n"
	"call in entry order: Entry (usec since the run started), Delta (usec;\n"
	"-1 = still open when the run stopped or the program ended, -2 = stack\n"
	"watch), PID (thread id; 'i' = signal-handler context), Function, Caller.\n"
	"\n"
	"  --raw   hex addresses instead of names (for the addr2sym workflow)\n"
	"  --ns    times in nanoseconds\n"
	"  --no-demangle  C++ and Rust names as the symbol table has them (_ZN2ns3Foo3barEi)\n";

int kft_cmd_log(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "raw", no_argument, NULL, 'r' },
		{ "ns", no_argument, NULL, 'n' },
		{ "no-demangle", no_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kft_log_opts opts = { 0 };
	struct kft_symbolizer *sz = NULL;
	struct kft_error err;
	struct kft_trace tr;
	const char *dir;
	int c, ret = 1;

	if (kft_cli_wants_help(argc, argv, usage))
		return 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			opts.raw = true;
			break;
		case 'n':
			opts.ns = true;
			break;
		case 'D':
			kft_cli_no_demangle = true;
			break;
		default:
			kft_cli_usage_error(usage);
			return 2;
		}
	}
	if (argc - optind > 1)
		return kft_cli_fail("log: one trace directory at most\n%s", usage);
	dir = optind < argc ? argv[optind] : KFT_DEFAULT_DIR;
	if (kft_cli_open_trace_as(dir, true, KFT_OPEN_NO_SWITCHES, &tr, &sz))
		return 1;
	if (kft_view_log(stdout, &tr, sz, &opts, &err))
		kft_cli_fail("%s", err.msg);
	else
		ret = 0;
	kft_cli_close_trace(&tr, sz);
	return ret;
}
