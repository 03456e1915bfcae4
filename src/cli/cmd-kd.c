// SPDX-License-Identifier: GPL-2.0-only
/* kft kd: kd 1.1's summary and call trees, on kft traces and KFT text logs. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../analysis/spooltree.h"
#include "../format/text-log.h"
#include "../views/kd.h"
#include "cli.h"

static const char usage[] =
	"usage: kft kd [options] [DIR | LOGFILE]\n"
	"\n"
	"Where did the time go: per-function totals, or call trees, from a kft\n"
	"trace directory (default kft.data) or a KFT text log (/proc/kft_data as\n"
	"saved, raw or after addr2sym; '-' reads stdin). kd 1.1's options:\n"
	"\n"
	"  -n N      show only the first N functions\n"
	"  -t T      show only functions whose total time is at least T usec\n"
	"  -s K      sort by column K: F c t a s l n, or N X D M P Q U o T K (default\n"
	"            t, largest first)\n"
	"  -f COLS   columns. Summary: F function, c count, t time, a average,\n"
	"            r range, s sub-time, l local, m max-sub, n max-sub count,\n"
	"            u sub list; and N min, X max, D std deviation, M median,\n"
	"            P 95th and Q 99th percentile, U unfinished calls, o On-CPU: Time\n"
	"            less the time its thread was switched out meanwhile (when kft\n"
	"            record could record context switches); of a trace kft record\n"
	"            --compensate made, T doubt (how far Time may be off either\n"
	"            way) and K taken (what compensation took off Time) (default\n"
	"            Fctal; FctTKal when compensated).\n"
	"            Call trees: e entry, t duration, l local, p pid\n"
	"  -l        long listing: columns Fctalsmn (with -c: etlp)\n"
	"  -c        call trees instead of the summary\n"
	"  -i        with -c: interlace other threads' and interrupts' (signal\n"
	"            handlers') calls where they began, between banners\n"
	"  -r        with -c: rows in log order, as they are read\n"
	"  -d N      with -c: depth to align saved arguments to (default 20)\n"
	"  -m N      with -c: name length to align saved arguments to (default 40)\n"
	"  -V        version\n"
	"\n"
	"And beyond kd:\n"
	"  --ascending        sort smallest first\n"
	"  --slowest N FUNC   the N slowest calls of FUNC, each with its call tree\n"
	"  --switches         with -c or --slowest: where each thread left the CPU\n"
	"                     and for how long, as '/* off the CPU N us: slept */'\n"
	"                     (or preempted) inside the calls then open. The\n"
	"                     markers a program made (kft_printf, kft_mark) show\n"
	"                     as '/* text */' rows there always (but with -i, -r,\n"
	"                     --classic and text logs)\n"
	"  --no-demangle      C++ and Rust names as the symbol table has them\n"
	"  --classic          kd 1.1's arithmetic: functions by name, nesting by\n"
	"                     caller name across threads, unfinished calls summed\n"
	"                     as -1, Range always shown (to compare old reports)\n"
	"  --zero-unfinished  a text log's Delta of 0 is an exit not seen (-1), as\n"
	"                     KFI's logs meant it; a KFI-era log (its last column\n"
	"                     titled 'Called At') is read so without it\n"
	"\n"
	"Times are in usec. A call that never returned shows -1 and is left out of\n"
	"the sums; its Local is '-'. Functions are told apart by address: two\n"
	"static functions of one name show their source file, as 'name [file.c]'.\n";

static int bad_number(const char *opt, const char *v)
{
	return kft_cli_fail("kd: %s: '%s' is not a number (see kft kd -h)", opt, v);
}

static bool number(const char *s, long long *v)
{
	char *end;

	*v = strtoll(s, &end, 10);
	return *s && !*end;
}

int kft_cmd_kd(int argc, char **argv)
{
	struct kft_kd_opts o = { .sort = 't', .limit = -1, .min_time_us = LLONG_MIN,
				 .max_depth = 20, .max_funclen = 40 };
	struct kft_kd_request rq = { 0 };
	const char *input = NULL;
	long long v;
	bool long_list = false;
	struct kft_text_reader *r;
	struct kft_text_source src;
	struct kft_error err;
	struct stat st;
	unsigned int text_flags = 0;
	int ret;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		bool takes = strchr("ntsfdm", a[0] == '-' && a[1] && !a[2] ? a[1] : '?') != NULL;

		if (takes && !val)
			return kft_cli_fail("kd: %s needs a value (see kft kd -h)", a);
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			printf("kft kd %s (options and layouts of kd 1.1)\n", KFT_VERSION);
			return 0;
		} else if (!strcmp(a, "-n")) {
			if (!number(val, &v) || v < 0)
				return bad_number(a, val);
			o.limit = (long)v;
		} else if (!strcmp(a, "-t")) {
			if (!number(val, &v))
				return bad_number(a, val);
			o.min_time_us = v;
		} else if (!strcmp(a, "-s")) {
			if (strlen(val) != 1 || !strchr("FctaslnNXDMPQUoTK", val[0]))
				return kft_cli_fail("kd: Invalid sort order '%s'. See usage for "
						    "help. "
						    "(Use -h)",
						    val);
			o.sort = val[0];
		} else if (!strcmp(a, "-f")) {
			o.columns = val;
			long_list = false;
		} else if (!strcmp(a, "-d") || !strcmp(a, "-m")) {
			if (!number(val, &v) || v < 0 || v > 1000)
				return bad_number(a, val);
			*(a[1] == 'd' ? &o.max_depth : &o.max_funclen) = (int)v;
		} else if (!strcmp(a, "-l")) {
			long_list = true;
			o.columns = NULL;
		} else if (!strcmp(a, "-c")) {
			rq.tree = true;
		} else if (!strcmp(a, "-i")) {
			o.interlace = true;
		} else if (!strcmp(a, "-r")) {
			o.raw_order = true;
		} else if (!strcmp(a, "--no-demangle")) {
			kft_cli_no_demangle = true;
		} else if (!strcmp(a, "--classic")) {
			o.classic = true;
		} else if (!strcmp(a, "--zero-unfinished")) {
			text_flags |= KFT_TEXT_ZERO_UNFINISHED;
		} else if (!strcmp(a, "--ascending")) {
			o.ascending = true;
		} else if (!strcmp(a, "--switches")) {
			rq.switches = true;
		} else if (!strcmp(a, "--slowest")) {
			if (i + 2 >= argc)
				return kft_cli_fail("kd: --slowest needs N and FUNC");
			if (!number(argv[i + 1], &v))
				return bad_number(a, argv[i + 1]);
			if (v < 1)
				return kft_cli_fail("kd: --slowest: N is how many calls to show: "
						    "at "
						    "least 1");
			rq.slowest_n = (long)v;
			rq.slowest_func = argv[i + 2];
			i += 2;
			continue;
		} else if (a[0] == '-' && a[1]) {
			return kft_cli_fail("kd: unknown option '%s' (see kft kd -h)", a);
		} else {
			if (input)
				return kft_cli_fail("kd: one input at most ('%s' and '%s')", input,
						    a);
			input = a;
			continue;
		}
		if (takes)
			i++;
	}
	if (long_list)
		o.columns = rq.tree ? KFT_KD_TREE_COLUMNS : "Fctalsmn";
	if (!input)
		input = KFT_DEFAULT_DIR;

	if (strcmp(input, "-") && kft_cli_trace_missing(input, " or text log"))
		return 1;
	if (strcmp(input, "-") && !stat(input, &st) && S_ISDIR(st.st_mode)) {
		struct kft_trace tr;
		struct kft_symbolizer *sz;

		/* (only the trees show saved arguments) */
		if (kft_cli_open_trace_as(input, false, rq.tree ? 0 : KFT_OPEN_NO_ARGS, &tr, &sz))
			return 1;
		if (rq.switches && !tr.switches.present)
			fprintf(stderr, "kft: kd: %s has no context switches (recorded with "
				"--no-switches, or the kernel refused them)\n", tr.dir);
		ret = kft_view_kd_trace(stdout, &tr, sz, &o, &rq, &err);
		kft_cli_close_trace(&tr, sz);
		return ret ? kft_cli_fail("%s", err.msg) : 0;
	}
	/* a log is read row by row, its trees kept on disk */
	if (!(r = kft_text_reader_open(input, text_flags, &err)))
		return kft_cli_fail("%s", err.msg);
	src = kft_text_source_of_reader(r);
	ret = kft_view_kd_rows(stdout, &src, &o, &rq, &err);
	kft_text_reader_close(r);
	return ret ? kft_cli_fail("%s", err.msg) : 0;
}
