// SPDX-License-Identifier: GPL-2.0-only
/* kft latency: a function's worst case, as ftrace's latency tracers showed it. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../format/trace-files.h"
#include "../views/latency.h"
#include "../views/stats.h"
#include "cli.h"

static const char usage[] =
	"usage: kft latency [-n N] [DIR] [FUNC]\n"
	"       kft latency --by FUNC@argN [-n N] [DIR]\n"
	"       kft latency --wakeup [-n N] [DIR]\n"
	"\n"
	"The longest call of FUNC in the trace in DIR (default kft.data), as\n"
	"ftrace's latency tracers kept their worst case: the latency_trace layout,\n"
	"a header with the latency (usec), the task and where it started and\n"
	"ended, then every call that began during it, on its thread and on the\n"
	"others, with the time since its start and the delay marks (+ over 1 us\n"
	"to the next line, ! over 100 us).\n"
	"\n"
	"A trace made by `kft record --latency FUNC` keeps FUNC's longest call in\n"
	"DIR/latency, even after its rings have forgotten it: FUNC may be left\n"
	"out, and that copy is read (at any moment, while the program runs too).\n"
	"\n"
	"  --by FUNC@argN the longest call of FUNC for each value of its argument N\n"
	"                 (or FUNC@retval: of its return value), saved by `kft\n"
	"                 record -A/-R`, longest first, when it began and its\n"
	"                 thread; then FUNC's longest call as above\n"
	"  --wakeup       the worst wakeup latency of a kernel trace instead (from\n"
	"                 sched_wakeup to the task's switch in, as ftrace's wakeup\n"
	"                 tracer kept it), with what ran meanwhile\n"
	"  -n N           at most N lines of calls (default 1000)\n"
	"  --no-demangle  C++ and Rust names as the symbol table has them\n";

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * With kft record --latency: the function it kept (when none is named),
 * and its copy to read instead of the trace, when the function is that
 * one. 0, or 1 after saying that no function is named or kept.
 */
static int kept_copy(const char **dir, const char **func, char *kept, char *copy, size_t size)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/" KFT_LATENCY_FUNC_FILE, *dir);
	f = fopen(path, "re");
	kept[0] = '\0';
	if (f) {
		if (!fgets(kept, 256, f))
			kept[0] = '\0';
		fclose(f);
		kept[strcspn(kept, "\n")] = '\0';
	}
	if (!*func && !kept[0])
		return kft_cli_fail("latency: which function? (see kft latency -h)");
	if (!*func)
		*func = kept;
	snprintf(copy, size, "%s/latency", *dir);
	if (kept[0] && !strcmp(*func, kept) && is_dir(copy))
		*dir = copy;
	return 0;
}

int kft_cmd_latency(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "no-demangle", no_argument, NULL, 'D' },
		{ "wakeup", no_argument, NULL, 'W' },
		{ NULL, 0, NULL, 0 },
	};
	bool wakeup = false;
	const char *dir = KFT_DEFAULT_DIR, *func, *by = NULL;
	struct kft_symbolizer *sz;
	struct kft_error err;
	struct kft_trace tr;
	long limit = 1000;
	char kept[256], copy[4200], func_of_by[512];
	char *end;
	int c, ret, slot;

	if (kft_cli_wants_help(argc, argv, usage))
		return 0;
	while ((c = getopt_long(argc, argv, "n:", longopts, NULL)) != -1) {
		if (c == 'n') {
			limit = strtol(optarg, &end, 10);
			if (!*optarg || *end || limit < 1)
				return kft_cli_fail("latency: -n: '%s' is not a number of "
						    "lines",
						    optarg);
		} else if (c == 'D') {
			kft_cli_no_demangle = true;
		} else if (c == 'b') {
			by = optarg;
		} else if (c == 'W') {
			wakeup = true;
		} else {
			kft_cli_usage_error(usage);
			return 2;
		}
	}
	if (by) {
		if (wakeup || argc - optind > 1)
			return kft_cli_fail("latency: --by takes a trace directory at most");
		if (argc - optind == 1)
			dir = argv[optind];
		func = NULL;
	} else if (wakeup) {
		if (argc - optind > 1)
			return kft_cli_fail("latency: --wakeup takes a trace directory at most");
		if (argc - optind == 1)
			dir = argv[optind];
		func = NULL;
	} else if (argc - optind == 2) {
		dir = argv[optind];
		func = argv[optind + 1];
	} else if (argc - optind == 1 && !is_dir(argv[optind])) {
		func = argv[optind];
	} else if (argc - optind <= 1) {
		if (argc - optind == 1)
			dir = argv[optind];
		func = NULL;
	} else {
		return kft_cli_fail("latency: a trace directory and a function at most");
	}
	if (!wakeup && !by && kept_copy(&dir, &func, kept, copy, sizeof(copy)))
		return 1;
	if (kft_cli_open_trace_as(dir, false, by ? 0 : KFT_OPEN_NO_ARGS, &tr, &sz))
		return 1;
	if (by) {
		ret = kft_view_by_arg(stdout, &tr, sz, by, true, &err);
		if (!ret) {
			/* then the worst of them all, as for FUNC */
			kft_arg_key_parse(by, func_of_by, sizeof(func_of_by), &slot);
			putchar('\n');
			ret = kft_view_latency(stdout, &tr, sz, func_of_by, (size_t)limit, &err);
		}
		kft_cli_close_trace(&tr, sz);
		return ret ? kft_cli_fail("latency: %s", err.msg) : 0;
	}
	ret = func ? kft_view_latency(stdout, &tr, sz, func, (size_t)limit, &err)
		   : kft_view_wakeup_latency(stdout, &tr, sz, (size_t)limit, &err);
	kft_cli_close_trace(&tr, sz);
	return ret ? kft_cli_fail("%s", err.msg) : 0;
}
