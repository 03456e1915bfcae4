// SPDX-License-Identifier: GPL-2.0-only
/* kft stats: how often and how regularly functions ran. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../views/stats.h"
#include "cli.h"

static const char usage[] =
	"usage: kft stats [options] [DIR] [FUNC...]\n"
	"\n"
	"How often and how regularly each function ran, from the trace in DIR\n"
	"(default kft.data), as KPTrace's interval tables showed interrupts:\n"
	"Fired (calls), Freq (calls per second of the run), the interval between\n"
	"successive entries (Min, Avg, Max, SD) and the calls' durations (Min,\n"
	"Avg, Max, SD, p50 the median, p99 the 99th percentile), in usec, most\n"
	"calls first. FUNC (names or globs, foo*) chooses the functions; for each\n"
	"one named, what its thread ran during the longest interval follows.\n"
	"\n"
	"  --by FUNC@argN      FUNC's calls grouped by the value of its argument N\n"
	"                      (or FUNC@retval: its return value), saved by\n"
	"                      `kft record -A/-R`: calls and time of each value,\n"
	"                      most time first\n"
	"  --set NAME          the functions of the set NAME of the trace's config\n"
	"                      (`set NAME F1 F2 ...`, names or globs, as kptrace.conf's\n"
	"                      groups); again for more\n"
	"  -n N                show only the first N functions\n"
	"  --gap N             list at most N calls in a longest interval (default 10)\n"
	"  --gaps              the longest interval of every function shown\n"
	"  --hist FUNC         FUNC's durations as a histogram (log-scale buckets)\n"
	"  --intervals         with --hist: the intervals between entries instead\n"
	"  -o FILE.svg         with --hist: draw it as an SVG picture in FILE\n"
	"  --no-demangle       C++ and Rust names as the symbol table has them\n";

/* Whether s is a trace directory, not a function. */
static bool is_trace_dir(const char *s)
{
	struct stat st;

	return !stat(s, &st) && S_ISDIR(st.st_mode);
}

static int number_arg(const char *opt, const char *v, long *out)
{
	char *end;

	*out = strtol(v, &end, 10);
	if (*v && !*end && *out >= 0)
		return 0;
	return kft_cli_fail("stats: %s: '%s' is not a number", opt, v);
}

int kft_cmd_stats(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "gap", required_argument, NULL, 'g' },
		{ "gaps", no_argument, NULL, 'G' },
		{ "hist", required_argument, NULL, 'H' },
		{ "intervals", no_argument, NULL, 'I' },
		{ "no-demangle", no_argument, NULL, 'D' },
		{ "set", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	const char *sets[16];
	size_t nsets = 0;
	const char *dir = KFT_DEFAULT_DIR, *hist = NULL, *svg = NULL, *by = NULL;
	const char **funcs = calloc((size_t)argc + 1, sizeof(*funcs));
	struct kft_export_opts o = { .only = funcs };
	long limit = -1, gap = 10;
	bool all_gaps = false, intervals = false, dir_given = false;
	struct kft_symbolizer *sz;
	struct kft_error err;
	struct kft_stats st;
	struct kft_trace tr;
	int c, ret = 1;

	if (!funcs)
		return kft_cli_fail("out of memory");
	if (kft_cli_wants_help(argc, argv, usage)) {
		free(funcs);
		return 0;
	}
	while ((c = getopt_long(argc, argv, "n:o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (number_arg("-n", optarg, &limit))
				goto out_free;
			break;
		case 'g':
			if (number_arg("--gap", optarg, &gap))
				goto out_free;
			break;
		case 'G': all_gaps = true; break;
		case 'b': by = optarg; break;
		case 'H': hist = optarg; break;
		case 'I': intervals = true; break;
		case 'o': svg = optarg; break;
		case 's':
			if (nsets == 16) {
				kft_cli_fail("stats: 16 sets at most");
				goto out_free;
			}
			sets[nsets++] = optarg;
			break;
		case 'D':
			kft_cli_no_demangle = true;
			break;
		default:
			kft_cli_usage_error(usage);
			free(funcs);
			return 2;
		}
	}
	for (int i = optind; i < argc; i++) {
		if (!dir_given && o.nonly == 0 && is_trace_dir(argv[i])) {
			dir = argv[i];
			dir_given = true;
		} else {
			funcs[o.nonly++] = argv[i];
		}
	}
	if ((svg || intervals) && !hist) {
		kft_cli_fail("stats: %s goes with --hist FUNC", svg ? "-o" : "--intervals");
		goto out_free;
	}
	if (by && (hist || nsets || o.nonly)) {
		kft_cli_fail("stats: --by names its function; no FUNC, --set or --hist with it");
		goto out_free;
	}
	if (hist) {
		o.nonly = 1;
		funcs[0] = hist;
	}
	if (kft_cli_open_trace_as(dir, false, by ? 0 : KFT_OPEN_NO_ARGS, &tr, &sz))
		goto out_free;
	if (by) {
		ret = kft_view_by_arg(stdout, &tr, sz, by, false, &err) ? kft_cli_fail("stats: %s", err.msg)
									  : 0;
		goto out_trace;
	}
	/* the sets' functions join those named */
	for (size_t i = 0; i < nsets; i++) {
		const struct kft_set *set = kft_config_set(&tr.cfg, sets[i]);
		const char **more;

		if (!set) {
			kft_cli_fail("stats: --set %s: the config of %s defines no such "
				     "set",
				     sets[i], dir);
			goto out_trace;
		}
		more = realloc(funcs, (o.nonly + set->nmembers + 1) * sizeof(*more));
		if (!more) {
			kft_cli_fail("out of memory");
			goto out_trace;
		}
		funcs = more;
		o.only = funcs;
		for (size_t k = 0; k < set->nmembers; k++)
			funcs[o.nonly++] = set->members[k];
	}
	if (kft_stats_compute(&st, &tr, sz, &o, &err)) {
		kft_cli_fail("%s", err.msg);
		goto out;
	}
	if (hist) {
		const struct kft_func_stats *s = NULL;
		FILE *out = stdout;

		for (size_t i = 0; i < st.nfuncs && !s; i++)
			if (!strcmp(st.x.names.funcs[st.funcs[i].func].base_name, hist) ||
			    !strcmp(st.x.names.funcs[st.funcs[i].func].name, hist))
				s = &st.funcs[i];
		if (!s) {
			kft_cli_fail("stats: --hist: %s never ran in %s", hist, dir);
			goto out;
		}
		if (svg && strcmp(svg, "-") && !(out = fopen(svg, "we"))) {
			kft_cli_fail("%s: %m", svg);
			goto out;
		}
		kft_stats_histogram(out, &st, s, intervals, svg != NULL);
		if (out != stdout && fclose(out)) {
			kft_cli_fail("%s: %m", svg);
			goto out;
		}
		if (out != stdout)
			fprintf(stderr, "kft: wrote %s\n", svg);
		ret = 0;
		goto out;
	}
	if (limit >= 0 && (size_t)limit < st.nfuncs)
		st.nfuncs = (size_t)limit;
	kft_stats_print(stdout, &st);
	ret = 0;
	for (size_t i = 0; i < st.nfuncs && !ret; i++)
		if ((all_gaps || o.nonly) &&
		    kft_stats_print_gap(stdout, &st, &st.funcs[i], &tr, (size_t)gap, &err))
			ret = kft_cli_fail("%s", err.msg);
out:
	kft_stats_free(&st);
out_trace:
	kft_cli_close_trace(&tr, sz);
out_free:
	free(funcs);
	return ret;
}
