// SPDX-License-Identifier: GPL-2.0-only
/*
 * kft record: the options parsed, then record/record.c does what they
 * ask (a program run, a process attached to, the kernel traced), and
 * trace-finish.c finishes the trace it leaves. kft's exit status is the
 * program's.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../record/record.h"
#include "cli.h"

static const char usage[] =
	"usage: kft record [-c CONFIG] [-o DIR] [--max-size SIZE] [--no-prime] [--no-check]\n"
	"                  [-F PATTERN] [-N PATTERN] [-G FUNC] [-D N] [--cpus LIST]\n"
	"                  [--compensate] [--no-compress] [--no-switches] [--no-wait]\n"
	"                  [--libcalls[=all] | --no-libcalls] [-A FUNC[@SPEC]] [-R FUNC]\n"
	"                  [--lib LIB] [--dynamic-report] [--] PROG [ARGS...]\n"
	"       kft record -p PID [-c CONFIG] [-o DIR] [--max-size SIZE] [--no-prime]\n"
	"                  [-F PATTERN] [-N PATTERN] [-G FUNC] [-D N] [--no-compress]\n"
	"                  [--libcalls[=all] | --no-libcalls] [--lib LIB] [--dynamic-report]\n"
	"       kft record --kernel [-c CONFIG] [-o DIR] [--irqs] [--compensate] [-- CMD [ARGS...]]\n"
	"\n"
	"Run PROG and record its function calls into DIR (default kft.data). kft\n"
	"waits for the processes PROG leaves running too (a daemon, a job in the\n"
	"background), which write the trace; its exit status is PROG's. PROG built\n"
	"with -finstrument-functions, -pg, -pg -mfentry or\n"
	"-fpatchable-function-entry=5 calls kft itself; a program\n"
	"built with none of them has its functions' entries patched as it loads\n"
	"(x86-64; the functions kft cannot patch safely are left out, and said).\n"
	"\n"
	"  -c, --config FILE  a KFT configuration (triggers, filters, watches, log size);\n"
	"                     without one, every call is recorded from the first, for\n"
	"                     as long as the program runs: the trace grows with it\n"
	"  -F, --filter PATTERN  log only calls of the functions PATTERN names (a name\n"
	"                     or a glob: foo*, *foo, f?o, [ab]*), as ftrace's\n"
	"                     set_ftrace_filter; repeat it for more (config: filter\n"
	"                     funclist)\n"
	"  -N, --notrace PATTERN  never log calls of these functions, as\n"
	"                     set_ftrace_notrace; it wins over -F (config: filter notrace)\n"
	"  -G, --graph FUNC   log only what runs inside FUNC (names or globs), FUNC\n"
	"                     included, as set_graph_function (config: filter graph)\n"
	"  -D, --depth N      log only calls at most N levels deep, from FUNC with -G,\n"
	"                     else from the thread's outermost call, as max_graph_depth\n"
	"                     (config: filter depth)\n"
	"      --cpus LIST    log only calls entered on these CPUs (0,2-3, or a hex\n"
	"                     mask 0xd), as tracing_cpumask; with --kernel, the\n"
	"                     kernel's tracing_cpumask (config: filter cpus)\n"
	"      --max-size SIZE  stop logging when the records of all threads would\n"
	"                     take more than SIZE bytes (suffix K, M, G: KiB, MiB, GiB),\n"
	"                     counted before compression, 16 bytes a call\n"
	"      --no-compress  keep the records raw (16 bytes a call); by default they\n"
	"                     are compressed while the program runs, to about 1 to 2\n"
	"                     bytes a call (see kft-compress(1))\n"
	"      --no-switches  do not record context switches (by default they are:\n"
	"                     a program's from the kernel's perf events, where\n"
	"                     kernel.perf_event_paranoid allows; with --kernel, the\n"
	"                     sched_switch events. kft kd's On-CPU column and kft\n"
	"                     ftrace's switch lines come from them)\n"
	"      --no-wait      do not wait for the processes PROG leaves running: the\n"
	"                     trace is read as far as they got (Ctrl-C while kft\n"
	"                     waits does the same); kft status lists those still\n"
	"                     running\n"
	"      --libcalls     the calls the program and its instrumented libraries\n"
	"                     make into shared libraries too (libc's malloc,\n"
	"                     read...), each under its caller, named as called;\n"
	"                     with =all, the calls every library makes into\n"
	"                     another too (libstdc++'s operator new to malloc)\n"
	"                     (config: libcalls [all]); --no-libcalls: not, whatever\n"
	"                     the config says\n"
	"  -A, --argument FUNC[@SPEC]  save FUNC's arguments (names or globs; SPEC:\n"
	"                     arg1..arg6, fparg1..fparg8, stack1..stack8 (the words\n"
	"                     passed on the stack) by commas, each /d /u /x /b with a\n"
	"                     size 8..64, /f32 /f64, /e:ENUM or /s a string:\n"
	"                     open@arg1/s,arg2/x; default: the types the debug\n"
	"                     information gives, else the first three, /d); the\n"
	"                     views show them (config: args, kft-config(5))\n"
	"  -R, --retval FUNC[@retval/FMT]  save FUNC's return value. -A and -R take\n"
	"                     a program built with -pg, -pg -mfentry,\n"
	"                     -fpatchable-function-entry=5 or none of them\n"
	"                     (patched), or a library call under --libcalls; not\n"
	"                     -finstrument-functions, whose hooks see no argument;\n"
	"                     with --kernel, a kernel function's are saved by\n"
	"                     kprobe events (kft-kernel(1))\n"
	"  -a, --auto-args    save the arguments and return value of every function\n"
	"                     whose types the program's debug information (-g) gives,\n"
	"                     and under --libcalls of the C library's common functions\n"
	"                     (-A and -R still choose for the functions they name)\n"
	"  -p, --pid PID      trace the running process PID, built with\n"
	"                     -fpatchable-function-entry=5 or without instrumentation\n"
	"                     (x86-64) and started without kft, until Ctrl-C or the\n"
	"                     config's stop trigger; it runs on untraced after, its\n"
	"                     code as it was (kft-record(1) says what it takes)\n"
	"  -o, --output DIR   the trace directory: new, empty, or an older kft trace,\n"
	"                     which is replaced (a directory of other files, a\n"
	"                     symbolic link or one in use by another kft is refused)\n"
	"      --no-prime     leave the run loaded but not primed (unless the config\n"
	"                     says `prime`): arm it later with `kft prime`\n"
	"      --compensate   take the tracer's own cost out of every duration: the\n"
	"                     hooks time themselves as they run, and what they cannot\n"
	"                     see of themselves is measured at start (kft-record(1))\n"
	"      --kernel       trace the Linux kernel through ftrace (as root): with CMD,\n"
	"                     the kernel functions CMD and its children run, and CMD's\n"
	"                     own calls if it is instrumented, in one trace; without,\n"
	"                     every task until Ctrl-C or the stop trigger (kft-kernel(1))\n"
	"      --irqs         with --kernel: the interrupts and softirqs too, each a\n"
	"                     call of a pseudo-task a CPU (irq/cpuN) named after it\n"
	"                     (irq16:eth0, softirq:TIMER): kft stats gives their table\n"
	"      --latency FUNC keep the longest call of FUNC as the program runs, as\n"
	"                     ftrace's latency tracers kept their worst case: the\n"
	"                     threads log into rings (logentries, default 1M calls\n"
	"                     each), and a longer call of FUNC copies the trace into\n"
	"                     DIR/latency (kft latency DIR reads it, at any moment)\n"
	"      --lib LIB      patch the functions of the shared library LIB too, as\n"
	"                     those of a program built without instrumentation\n"
	"                     (x86-64): a library PROG loads at start (with -p, one\n"
	"                     the process has loaded), named by its file name or a\n"
	"                     glob of it (libz.so.1, 'libfoo*') or its path, or one\n"
	"                     it opens later with dlopen, by its path; repeat it\n"
	"                     for more\n"
	"      --dynamic-report  list each function of a patched PROG or LIB left\n"
	"                     unpatched, and why (a stripped file's functions come\n"
	"                     from its .eh_frame, named func_ADDR)\n"
	"      --no-check     do not check that PROG is instrumented and that the\n"
	"                     config's functions exist in it (for functions that live\n"
	"                     in shared libraries); a program built without\n"
	"                     instrumentation is still patched, as it starts\n";

/* "64M": bytes, with a K, M or G suffix (powers of 1024). */
static int parse_size(const char *arg, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (*end == 'K' || *end == 'k')
		shift = 10;
	else if (*end == 'M' || *end == 'm')
		shift = 20;
	else if (*end == 'G' || *end == 'g')
		shift = 30;
	if (shift)
		end++;
	if (errno || *arg < '0' || *arg > '9' || *end || !v || v > (UINT64_MAX >> shift))
		return kft_cli_fail("--max-size %s: expected a size in bytes, such as 4096, 512K, "
				    "64M "
				    "or 2G",
				    arg);
	*out = (uint64_t)v << shift;
	return 0;
}

/* One -F, -N, -G pattern, -A or -R spec, or --lib into its list. */
static int add_to(const char **list, size_t *n, size_t max, const char *what, const char *v)
{
	if (*n == max)
		return kft_cli_fail("record: %zu %s at most", max, what);
	list[(*n)++] = v;
	return 0;
}

static int parse_opts(int argc, char **argv, struct kft_record_opts *o)
{
	const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "no-prime", no_argument, &o->no_prime, 1 },
		{ "no-check", no_argument, &o->no_check, 1 },
		{ "compensate", no_argument, &o->compensate, 1 },
		{ "no-compress", no_argument, &o->no_compress, 1 },
		{ "no-switches", no_argument, &o->no_switches, 1 },
		{ "no-wait", no_argument, &o->no_wait, 1 },
		{ "libcalls", optional_argument, NULL, 1001 },
		{ "no-libcalls", no_argument, &o->no_libcalls, 1 },
		{ "irqs", no_argument, &o->irqs, 1 },
		{ "kernel", no_argument, &o->kernel, 1 },
		{ "max-size", required_argument, NULL, 'M' },
		{ "filter", required_argument, NULL, 'F' },
		{ "notrace", required_argument, NULL, 'N' },
		{ "graph", required_argument, NULL, 'G' },
		{ "depth", required_argument, NULL, 'D' },
		{ "argument", required_argument, NULL, 'A' },
		{ "auto-args", no_argument, NULL, 'a' },
		{ "retval", required_argument, NULL, 'R' },
		{ "cpus", required_argument, NULL, 1000 },
		{ "pid", required_argument, NULL, 'p' },
		{ "latency", required_argument, NULL, 'L' },
		{ "dynamic-report", no_argument, &o->dynamic_report, 1 },
		{ "lib", required_argument, NULL, 1004 },
		{ NULL, 0, NULL, 0 },
	};
	struct kft_selections *s = &o->sel;
	struct kft_error err;
	int c, bad = 0;

	o->dir = KFT_DEFAULT_DIR;
	while (!bad && (c = getopt_long(argc, argv, "+c:o:F:N:G:D:p:A:R:a", longopts, NULL)) != -1) {
		switch (c) {
		case 0:
			break;	/* a flag, set */
		case 'F':
			bad = add_to(s->filter, &s->nfilter, KFT_SELECTIONS_MAX, "-F patterns", optarg);
			break;
		case 'N':
			bad = add_to(s->notrace, &s->nnotrace, KFT_SELECTIONS_MAX, "-N patterns",
				     optarg);
			break;
		case 'G':
			bad = add_to(s->graph, &s->ngraph, KFT_SELECTIONS_MAX, "-G patterns", optarg);
			break;
		case 'A':
		case 'R':
			bad = add_to(s->args, &s->nargs, KFT_SELECTIONS_MAX, "-A and -R", optarg);
			if (!bad)
				s->args_ret[s->nargs - 1] = c == 'R';
			break;
		case 1004:
			bad = add_to((const char **)o->libs, &o->nlibs, KFT_RECORD_LIBS_MAX, "--lib",
				     optarg);
			break;
		case 'a':
			o->auto_args = 1;
			break;
		case 'D':
			s->depth = optarg;
			break;
		case 1000:
			s->cpus = optarg;
			break;
		case 1001:
			o->libcalls = true;
			o->libcalls_all = optarg != NULL;
			if (optarg && strcmp(optarg, "all"))
				bad = kft_cli_fail("record: --libcalls=%s: the only word it takes is "
						   "all", optarg);
			break;
		case 'p':
			o->pid = optarg;
			break;
		case 'L':
			o->latency = optarg;
			break;
		case 'c':
			o->config = optarg;
			break;
		case 'o':
			o->dir = optarg;
			break;
		case 'M':
			bad = parse_size(optarg, &o->max_size);
			break;
		default:
			kft_cli_usage_error(usage);
			return -1;
		}
	}
	if (bad)
		return -1;
	o->argc = argc - optind;
	o->argv = argv + optind;
	if (kft_record_opts_check(o, &err))
		return kft_cli_fail("%s", err.msg);
	if (!o->argc && !o->kernel && !o->pid) {
		fprintf(stderr, "kft: record: no program given\n%s", usage);
		return -1;
	}
	return 0;
}

int kft_cmd_record(int argc, char **argv)
{
	struct kft_record_opts o = { 0 };
	struct kft_record_hooks h = { .notes = stderr, .say = kft_cli_say,
				      .finish = kft_cli_finish_trace };
	struct kft_error err;
	int status;

	if (kft_cli_wants_help(argc, argv, usage))
		return 0;
	if (parse_opts(argc, argv, &o))
		return 2;
	if (kft_record(&o, &h, &status, &err))
		kft_cli_fail("%s", err.msg);
	return status;
}
