// SPDX-License-Identifier: GPL-2.0-only
/* kft export: the trace in formats other tools open. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../views/export.h"
#include "cli.h"

static const char usage[] =
	"usage: kft export --chrome FILE|--folded FILE [options] [DIR]\n"
	"\n"
	"Write the trace in DIR (default kft.data) as FILE (- for standard output),\n"
	"reading it as a stream: memory does not grow with the calls.\n"
	"\n"
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

static void human_size(char *buf, size_t size, long long bytes)
{
	if (bytes >= 10LL << 20)
		snprintf(buf, size, "%lld MiB", bytes >> 20);
	else if (bytes >= 10LL << 10)
		snprintf(buf, size, "%lld KiB", bytes >> 10);
	else
		snprintf(buf, size, "%lld bytes", bytes);
}

int cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
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
	struct kft_export_result res;
	struct kft_symbolizer *sz;
	struct kft_error err;
	struct kft_trace tr;
	char format = 0, size[32];
	struct stat st;
	FILE *out;
	int c, ret;

	if (wants_help(argc, argv, usage))
		return 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
		case 'f':
			if (format)
				return fail("export: one format at a time (--chrome or --folded)");
			format = (char)c;
			file = optarg;
			break;
		case 'w':
			if (strcmp(optarg, "self") && strcmp(optarg, "total"))
				return fail("export: --weight: '%s': self or total", optarg);
			o.self = !strcmp(optarg, "self");
			break;
		case 'm':
			if (parse_time(optarg, &o.min_ns))
				return fail("export: --min-duration: '%s' is not a time (20, 500ns, "
					    "20us, 3ms, 1s)", optarg);
			break;
		case 'F':
		case 'N':
			if ((c == 'F' ? o.nonly : o.nnotrace) == 64)
				return fail("export: 64 globs at most for --filter and for --notrace");
			if (c == 'F')
				only[o.nonly++] = optarg;
			else
				notrace[o.nnotrace++] = optarg;
			break;
		case 'D':
			cli_no_demangle = true;
			break;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (!format)
		return fail("export: which format? --chrome FILE or --folded FILE (see kft export -h)");
	if (argc - optind > 1)
		return fail("export: one trace directory at most");
	if (open_trace(optind < argc ? argv[optind] : KFT_DEFAULT_DIR, true, &tr, &sz))
		return 1;
	out = strcmp(file, "-") ? fopen(file, "we") : stdout;
	if (!out) {
		close_trace(&tr, sz);
		return fail("%s: %m", file);
	}
	o.progress = out != stdout && isatty(STDERR_FILENO);
	ret = format == 'c' ? kft_export_chrome(out, &tr, sz, &o, &res, &err)
			    : kft_export_folded(out, &tr, sz, &o, &res, &err);
	if (out != stdout && fclose(out) && !ret)
		ret = kft_error_set(&err, "%s: %m", file);
	close_trace(&tr, sz);
	if (ret)
		return fail("%s", err.msg);
	if (out != stdout && !stat(file, &st)) {
		human_size(size, sizeof(size), (long long)st.st_size);
		fprintf(stderr, "kft: wrote %s: %llu %s of %llu calls, %s\n", file,
			(unsigned long long)res.written, format == 'c' ? "events" : "stacks",
			(unsigned long long)res.calls, size);
	}
	return 0;
}
