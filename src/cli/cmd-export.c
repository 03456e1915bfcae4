// SPDX-License-Identifier: GPL-2.0-only
/* kft export: the trace in formats other tools open. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../views/export.h"
#include "../views/flame.h"
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
	"  --no-demangle         C++ names as the symbol table has them\n"
	"\n"
	"A call left out by a filter is as if it was not logged: its calls go under\n"
	"the nearest call kept, whose own time then holds its time.\n";

/* "20" (usec), "500ns", "20us", "3ms", "1s" into ns. */
static int parse_time(const char *s, int64_t *ns)
{
	static const struct {
		const char *unit;
		int64_t ns;
	} units[] = { { "", 1000 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		      { "s", 1000000000 } };
	char *end;
	long long v = strtoll(s, &end, 10);

	if (end == s || v < 0)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit) && v <= INT64_MAX / units[i].ns) {
			*ns = v * units[i].ns;
			return 0;
		}
	return -1;
}

/* The options export and flame share: 0 taken, 1 not one of them, -1
 * refused (said). only and notrace hold 64 globs each. */
static int filter_option(int c, struct kft_export_opts *o, const char **only,
			 const char **notrace, const char *cmd)
{
	switch (c) {
	case 'm':
		if (!parse_time(optarg, &o->min_ns))
			return 0;
		kft_cli_fail("%s: --min-duration: '%s' is not a time (20, 500ns, 20us, 3ms, 1s)",
			     cmd, optarg);
		return -1;
	case 'F':
	case 'N':
		if ((c == 'F' ? o->nonly : o->nnotrace) == 64) {
			kft_cli_fail("%s: 64 globs at most for --filter and for --notrace", cmd);
			return -1;
		}
		if (c == 'F')
			only[o->nonly++] = optarg;
		else
			notrace[o->nnotrace++] = optarg;
		return 0;
	case 'D':
		kft_cli_no_demangle = true;
		return 0;
	}
	return 1;
}

static void human_size(char *buf, size_t size, long long bytes)
{
	if (bytes >= 10LL << 20)
		snprintf(buf, size, "%lld MiB", bytes >> 20);
	else if (bytes >= 10LL << 10)
		snprintf(buf, size, "%lld KiB", bytes >> 10);
	else
		snprintf(buf, size, "%lld bytes", bytes);
}

/* Open dir, write file in format ('p' perfetto, 'c' chrome, 'f' folded,
 * 's' flame graph SVG, 't' flame chart SVG), say what was written. */
static int write_out(const char *file, const char *dir, char format,
		     struct kft_export_opts *o, const char *title)
{
	struct kft_export_result res;
	struct kft_symbolizer *sz;
	struct kft_error err;
	struct kft_trace tr;
	char size[32];
	struct stat st;
	FILE *out;
	int ret;

	if (kft_cli_open_trace(dir, false, &tr, &sz))
		return 1;
	out = strcmp(file, "-") ? fopen(file, "we") : stdout;
	if (!out) {
		kft_cli_close_trace(&tr, sz);
		return kft_cli_fail("%s: %m", file);
	}
	o->progress = out != stdout && isatty(STDERR_FILENO);
	ret = format == 'p'   ? kft_export_perfetto(out, &tr, sz, o, !o->raw, &res, &err)
	      : format == 'c' ? kft_export_chrome(out, &tr, sz, o, &res, &err)
	      : format == 'f' ? kft_export_folded(out, &tr, sz, o, &res, &err)
	      : format == 's' ? kft_view_flame(out, &tr, sz, o, title, &res, &err)
			      : kft_view_flame_chart(out, &tr, sz, o, title, &res, &err);
	if (out != stdout && fclose(out) && !ret)
		ret = kft_error_set(&err, "%s: %m", file);
	kft_cli_close_trace(&tr, sz);
	if (ret)
		return kft_cli_fail("%s", err.msg);
	if (out != stdout && !stat(file, &st)) {
		human_size(size, sizeof(size), (long long)st.st_size);
		fprintf(stderr, "kft: wrote %s: %llu %s of %llu calls, %s\n", file,
			(unsigned long long)res.written,
			format == 'c'	? "events"
			: format == 'p' ? "slices"
			: format == 'f' ? "stacks"
					: "boxes",
			(unsigned long long)res.calls, size);
	}
	return 0;
}

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
			if ((c = filter_option(c, &o, only, notrace, "export")) < 0)
				return 1;
			if (c) {
				fputs(usage, stderr);
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
	return write_out(file, optind < argc ? argv[optind] : KFT_DEFAULT_DIR, format, &o, NULL);
}

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
	"  --no-demangle         C++ names as the symbol table has them\n";

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
		} else if ((c = filter_option(c, &o, only, notrace, "flame")) < 0) {
			return 1;
		} else if (c) {
			fputs(flame_usage, stderr);
			return 2;
		}
	}
	if (argc - optind > 1)
		return kft_cli_fail("flame: one trace directory at most");
	dir = optind < argc ? argv[optind] : KFT_DEFAULT_DIR;
	return write_out(file, dir, format, &o, title ? title : dir);
}
