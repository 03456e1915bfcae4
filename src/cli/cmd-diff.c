// SPDX-License-Identifier: GPL-2.0-only
/* kft diff: what changed between two traces. */
#include <getopt.h>
#include <stdlib.h>

#include "../views/diff.h"
#include "../views/stats.h"
#include "cli.h"

static const char usage[] =
	"usage: kft diff [-n N] [--functions | --by FUNC@argN] OLD NEW\n"
	"\n"
	"What changed between two traces of a program (trace directories OLD and\n"
	"NEW; kernel traces too): per function, its calls, its time (each\n"
	"outermost call once, as kft kd's Time), its Local time and the 99th\n"
	"percentile of its calls' durations, the largest change in time first;\n"
	"then per call path (main > run > tick), its calls, their time and their\n"
	"own time (less the paths they lead to), the largest change in own time\n"
	"first, so a regression shows where it entered. 'new' and 'gone' mark\n"
	"what only one trace has. Times in usec.\n"
	"\n"
	"  -n N           show only the first N rows of each table\n"
	"  --functions    the functions' table only\n"
	"  --by FUNC@argN FUNC's calls grouped by the value of its argument N (or\n"
	"                 FUNC@retval), saved by `kft record -A/-R`: each value's\n"
	"                 calls and time in OLD and NEW, the largest change first\n"
	"  --no-demangle  C++ and Rust names as the symbol table has them\n";

int kft_cmd_diff(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "functions", no_argument, NULL, 'f' },
		{ "no-demangle", no_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	struct kft_diff_opts o = { .limit = -1, .paths = true };
	struct kft_symbolizer *sz[2];
	struct kft_trace tr[2];
	struct kft_error err;
	const char *by = NULL;
	char *end;
	int c, ret;

	if (kft_cli_wants_help(argc, argv, usage))
		return 0;
	while ((c = getopt_long(argc, argv, "n:", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			o.limit = strtol(optarg, &end, 10);
			if (!*optarg || *end || o.limit < 0)
				return kft_cli_fail("diff: -n: '%s' is not a number", optarg);
			break;
		case 'f': o.paths = false; break;
		case 'b': by = optarg; break;
		case 'D':
			kft_cli_no_demangle = true;
			break;
		default:
			kft_cli_usage_error(usage);
			return 2;
		}
	}
	if (argc - optind != 2)
		return kft_cli_fail("diff: two trace directories, OLD and NEW (see kft diff -h)");
	if (kft_cli_open_trace_as(argv[optind], false, by ? 0 : KFT_OPEN_NO_ARGS, &tr[0], &sz[0]))
		return 1;
	if (kft_cli_open_trace_as(argv[optind + 1], false, by ? 0 : KFT_OPEN_NO_ARGS, &tr[1],
				  &sz[1])) {
		kft_cli_close_trace(&tr[0], sz[0]);
		return 1;
	}
	ret = by ? kft_view_diff_by_arg(stdout, &tr[0], sz[0], &tr[1], sz[1], by, o.limit, &err)
		 : kft_view_diff(stdout, &tr[0], sz[0], &tr[1], sz[1], &o, &err);
	kft_cli_close_trace(&tr[0], sz[0]);
	kft_cli_close_trace(&tr[1], sz[1]);
	return ret ? kft_cli_fail("%s", err.msg) : 0;
}
