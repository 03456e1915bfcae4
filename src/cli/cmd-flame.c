// SPDX-License-Identifier: GPL-2.0-only
/* kft flame: the trace as a flame graph or flame chart, one SVG file. */
#include <getopt.h>
#include <stdio.h>

#include "../views/export.h"
#include "cli.h"

static const char flame_usage[] =
	"usage: kft flame [-o FILE.svg] [--chart] [--title TEXT] [options] [DIR]\n"
	"\n"
	"Draw a flame graph of the trace in DIR (default kft.data) as one SVG file\n"
	"(default flame.svg) that any browser opens: each distinct call stack a box\n"
	"as wide as its calls' real time (no sampling: no call goes missing),\n"
	"callers below. Click a box to zoom on it, 'Reset zoom' to go back,\n"
	"'Search' to mark the functions a regular expression matches; a box's\n"
	"name, time and share show when the pointer rests on it. A link can do\n"
	"both: FILE.svg?s=REGEX&f=NAME.\n"
	"\n"
	"  -o, --output FILE     where to write it (- for standard output)\n"
	"  --chart               a flame chart instead: time left to right, a lane\n"
	"                        for each thread, each call a box from its entry to\n"
	"                        its exit, above its caller\n"
	"  --title TEXT          the title (default: the trace directory)\n"
	"  --min-duration TIME   leave out calls shorter than TIME (usec, or 500ns,\n"
	"                        20us, 3ms, 1s)\n"
	"  --filter GLOB         only calls of functions matching GLOB; again for more\n"
	"  --notrace GLOB        leave out calls of functions matching GLOB\n"
	"  --no-demangle         C++ and Rust names as the symbol table has them\n";

int kft_cmd_flame(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' },
		{ "chart", no_argument, NULL, 'C' },
		{ "min-duration", required_argument, NULL, 'm' },
		{ "filter", required_argument, NULL, 'F' },
		{ "notrace", required_argument, NULL, 'N' },
		{ "no-demangle", no_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	const char *only[64], *notrace[64], *file = "flame.svg", *title = NULL, *dir;
	char format = 's';
	struct kft_export_opts o = { .only = only, .notrace = notrace };
	int c;

	if (kft_cli_wants_help(argc, argv, flame_usage))
		return 0;
	while ((c = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
		if (c == 'o') {
			file = optarg;
		} else if (c == 't') {
			title = optarg;
		} else if (c == 'C') {
			format = 't';
		} else if ((c = kft_cli_export_option(c, &o, only, notrace, "flame")) < 0) {
			return 1;
		} else if (c) {
			kft_cli_usage_error(flame_usage);
			return 2;
		}
	}
	if (argc - optind > 1)
		return kft_cli_fail("flame: one trace directory at most");
	dir = optind < argc ? argv[optind] : KFT_DEFAULT_DIR;
	return kft_cli_export_write(file, dir, format, &o, title ? title : dir);
}
