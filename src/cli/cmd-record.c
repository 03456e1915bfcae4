// SPDX-License-Identifier: GPL-2.0-only
/*
 * kft record: the options into a config, then the program checked
 * (record/program-check.c) and run (record/run.c), a running process
 * attached to (record/attach.c) or the kernel traced
 * (record/kernel-run.c); then the trace's own reading (its symbols saved,
 * what it lost said) and the rest of its records compressed. kft's exit
 * status is the program's.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../config/config.h"
#include "../format/control.h"
#include "../format/compress-dir.h"
#include "../format/reader.h"
#include "../symbols/symbols-save.h"
#include "../views/views.h"
#include "cli.h"
#include "../record/attach.h"
#include "../record/auto-args.h"
#include "../record/selections.h"
#include "../record/hooked-funcs.h"
#include "../record/kernel-run.h"
#include "../record/libraries.h"
#include "../record/patch-plan.h"
#include "../record/program-check.h"
#include "../record/run.h"
#include "../record/launch.h"

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

#define LATENCY_RING (1 << 20)	/* --latency: calls a thread's ring holds */

struct record_opts {
	const char *config;
	const char *dir;
	bool no_prime;
	bool compensate;
	bool no_check;
	bool dynamic_report;	/* list the functions left unpatched */
	char *libs[64];		/* --lib: libraries to patch */
	size_t nlibs;
	bool kernel;
	bool no_compress;
	bool no_switches;
	bool no_wait;
	bool libcalls;
	bool libcalls_all;	/* --libcalls=all */
	bool no_libcalls;	/* --no-libcalls: whatever the config says */
	bool irqs;
	const char *pid;	/* -p: attach to it */
	const char *latency;	/* --latency: keep its longest call */
	uint64_t max_size;
	struct kft_selections sel;	/* -F, -N, -G, -A, -R, -D, --cpus */
	bool auto_args;		/* -a: every function's, from the debug information */
};

/*
 * The program has ended; from one reading of the trace: save the names of
 * the functions it holds (so that it reads the same when the program is
 * rebuilt, removed or elsewhere), and say what it could not hold and what
 * the config asked for that never came. With compress, what the runtime's
 * helper had not compressed (the end of each log, fork children's logs, a
 * run on one CPU) is compressed meanwhile (cut down only, raw_only;
 * failing leaves it raw): the reading has the logs open already and asks
 * for no record, and the two take about as long.
 */
static void record_finish(const char *dir, bool compress, bool raw_only)
{
	struct kft_compress_job job;
	struct kft_symbolizer *sz;
	struct kft_trace tr;
	struct kft_error err;
	bool opened;

	/* (held: this kft compresses it, but only after this reading) */
	opened = !kft_trace_open_as(&tr, dir,
				    KFT_OPEN_HELD | KFT_OPEN_NO_ARGS | KFT_OPEN_NO_SWITCHES |
					    KFT_OPEN_NO_RECORDS,
				    &err);	/* (if not, the views will say why) */
	if (compress)
		kft_trace_compress_start(&job, dir, raw_only);
	if (opened) {
		/* names from the files on disk, not from a symbols file saved before */
		sz = kft_symbolizer_new_from_disk(dir, &err);
		if (!sz || kft_symbols_save(dir, &tr, sz, &err))
			fprintf(stderr, "kft: warning: %s; names will come from the files on disk\n",
				err.msg);
		kft_view_losses(stderr, &tr, "kft: ");
		kft_view_unreached(stderr, &tr, sz, "kft: ");
		kft_symbolizer_free(sz);
		kft_trace_close(&tr);
	}
	if (compress && kft_trace_compress_wait(&job))
		fprintf(stderr, "kft: warning: %s; those records stay %s\n", job.err.msg,
			raw_only ? "where they are" : "uncompressed");
}

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* kft record --kernel; cfg is released. */
static int record_kernel(struct kft_config *cfg, const struct record_opts *o, int argc,
			 char **argv)
{
	struct kft_kernel_run r = { .cfg = cfg, .config = o->config, .dir = o->dir,
				    .compensate = o->compensate, .irqs = o->irqs,
				    .switches = !o->no_switches, .argc = argc, .argv = argv,
				    .say = kft_cli_say };
	struct kft_error err;
	int status;

	return kft_kernel_run(&r, &status, &err) ? kft_cli_fail("%s", err.msg) : status;
}

/* A program built without instrumentation, or a library (--lib): what
 * will be patched (when: "as it loads"), or is. */
static void say_plan(const struct kft_patch_plan *plan, const char *name, bool lib,
		     const char *when, bool report)
{
	if (!plan->nfuncs && !plan->nskips && plan->nunhooked) {
		fprintf(stderr, "kft: note: %s %s the filter logs none of its functions: nothing "
			"of it is patched\n", name, lib ? "(--lib):" : "is not instrumented:");
		return;
	}
	if (!plan->nfuncs && !plan->nskips) {
		fprintf(stderr, "kft: note: %s %s names none of its functions (stripped): nothing "
			"of it is traced%s\n", name, lib ? "(--lib)" : "is not instrumented and",
			lib ? "" : ", only the instrumented programs it starts");
		return;
	}
	fprintf(stderr, "kft: note: %s %s %zu of %s %zu functions%s are patched %s", name,
		lib ? "(--lib):" : "is not instrumented:", plan->nfuncs,
		plan->nunhooked ? "the" : "its", plan->nfuncs + plan->nskips - plan->nparts,
		plan->nunhooked ? " the filter logs" : "", when);
	if (plan->nparts)
		fprintf(stderr, " (%zu %s not counted)", plan->nparts,
			plan->nparts > 1 ? "pieces of the C runtime and cold parts"
					 : "piece of the C runtime or cold part");
	/* (the functions left out first, then what is none of them) */
	if (plan->nskips > plan->nparts && !report)
		fprintf(stderr, " (--dynamic-report says why not the others)");
	fputc('\n', stderr);
	for (int parts = 0; report && parts < 2; parts++) {
		size_t n = parts ? plan->nparts : plan->nskips - plan->nparts;

		if (n)
			fprintf(stderr, "kft:   %s (%zu):\n", parts ? "not counted, none of its "
				"functions" : "left as they are", n);
		for (size_t i = 0; i < plan->nskips; i++)
			if (plan->skips[i].part == parts)
				fprintf(stderr, "kft:   %s (%#llx): %s\n", plan->skips[i].name,
					(unsigned long long)plan->skips[i].addr,
					plan->skips[i].why);
	}
}

/* A program the run started after its first, planned as it started
 * (record/plan-server.c): said as the first was; ctx: --dynamic-report. */
static void say_started(void *ctx, const struct kft_patch_plan *plan)
{
	say_plan(plan, plan->path, false, "as it loads", *(const bool *)ctx);
}

/* What plans patches: prog (named name), then libs' (when: "as it
 * loads"). */
static void say_plans(const struct kft_patch_plans *plans, const char *name,
		      const struct kft_lib_list *libs, const char *when, bool report)
{
	for (size_t i = 0; i < plans->n; i++) {
		bool lib = i || !plans->program;

		say_plan(&plans->v[i], lib ? libs->v[i - plans->program].name : name, lib, when,
			 report);
	}
}

/* --lib's libraries of prog (running as pid, or 0: to start), into libs.
 * 0, or 1 said. */
static int choose_libs(const struct record_opts *o, const char *prog, pid_t pid,
		       struct kft_lib_list *libs)
{
	char runtime[PATH_MAX];
	struct kft_lib_list all = { 0 };
	struct kft_error err;
	int ret;

	memset(libs, 0, sizeof(*libs));
	if (!o->nlibs)
		return 0;
	ret = kft_launch_find_runtime(runtime, sizeof(runtime), &err) ||
	      (pid ? kft_libraries_mapped(pid, prog, &all, &err) : kft_libraries_of(prog, &all, &err)) ||
	      kft_libraries_chosen(&all, prog, !pid, runtime, o->libs, o->nlibs, libs, &err);
	kft_lib_list_free(&all);
	return kft_cli_said(ret ? -1 : 0, &err);
}

/* kft record -p: the process's program checked as a program to start is,
 * traced until Ctrl-C (or SIGTERM) or the run's end, then let go. */
static int attach(const struct record_opts *o, struct kft_config *cfg)
{
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	enum kft_attach_end how;
	struct kft_error err;
	char path[64], exe[PATH_MAX];
	struct kft_patch_plans plans = { 0 };
	struct kft_lib_list libs = { 0 };
	struct kft_hook_needs needs = { cfg, NULL };
	bool plain = false;
	char *end;
	long pid = strtol(o->pid, &end, 10);
	ssize_t n;
	int ret = 1;

	if (!*o->pid || *end || pid <= 0 || pid > INT32_MAX)
		return kft_cli_fail("record: -p %s: not a process id", o->pid);
	snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	if (n < 0 && errno == ENOENT)
		return kft_cli_fail("no process %ld", pid);
	if (n < 0)
		return kft_cli_fail("process %ld: its program cannot be read (%s): only its owner, "
				    "or "
				    "root, may trace it",
				    pid, strerror(errno));
	exe[n] = '\0';
	if (choose_libs(o, exe, (pid_t)pid, &libs) ||
	    (!o->no_check &&
	     kft_cli_said(kft_record_check_program(exe, cfg, o->config ? o->config : "config",
						   o->libcalls, o->libcalls_all, &libs, &plain,
						   stderr, &err),
			  &err)) ||
	    (o->auto_args && kft_cli_said(kft_auto_args(cfg, exe, o->libcalls, o->libcalls_all,
							stderr, &err), &err)) ||
	    kft_cli_said(kft_patch_plans_make(exe, plain, &libs, &needs, &plans, &err), &err))
		goto out;
	if (kft_cli_said(kft_attach_begin((pid_t)pid, exe, o->dir, cfg, cfg->prime || !o->no_prime,
					  (o->no_compress ? KFT_MODE_NO_COMPRESS : 0) |
						  (o->libcalls ? KFT_MODE_LIBCALLS : 0) |
						  (o->libcalls_all ? KFT_MODE_LIBCALLS_ALL : 0),
					  o->max_size, &plans, &err),
			 &err) ||
	    kft_cli_said(kft_auto_args_enums(cfg, exe, o->dir, stderr, &err), &err))
		goto out;
	say_plans(&plans, exe, &libs, "as kft attaches", o->dynamic_report);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	fprintf(stderr, "kft: tracing process %ld (%s) into %s; Ctrl-C to stop\n", pid, exe,
		o->dir);
	how = kft_attach_follow((pid_t)pid, exe, o->dir, &interrupted, &err);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (how == KFT_ATTACH_FAILED || how == KFT_ATTACH_DETACHING)
		kft_cli_said(-1, &err);
	record_finish(o->dir, false, false);
	if (how == KFT_ATTACH_DETACHED)
		fprintf(stderr, "kft: process %ld runs on untraced; the trace is in %s\n", pid,
			o->dir);
	ret = how == KFT_ATTACH_FAILED;
out:
	kft_patch_plans_free(&plans);
	kft_lib_list_free(&libs);
	return ret;
}

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

static int parse_opts(int argc, char **argv, struct record_opts *o)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "no-prime", no_argument, NULL, 'P' },
		{ "no-check", no_argument, NULL, 'C' },
		{ "compensate", no_argument, NULL, 'K' },
		{ "no-compress", no_argument, NULL, 'Z' },
		{ "no-switches", no_argument, NULL, 'S' },
		{ "no-wait", no_argument, NULL, 1010 },
		{ "libcalls", optional_argument, NULL, 1001 },
		{ "no-libcalls", no_argument, NULL, 1002 },
		{ "irqs", no_argument, NULL, 'I' },
		{ "kernel", no_argument, NULL, 'k' },
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
		{ "dynamic-report", no_argument, NULL, 1003 },
		{ "lib", required_argument, NULL, 1004 },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->dir = KFT_DEFAULT_DIR;
	while ((c = getopt_long(argc, argv, "+c:o:F:N:G:D:p:A:R:a", longopts, NULL)) != -1) {
		switch (c) {
		case 'F':
		case 'N':
		case 'G': {
			struct kft_selections *s = &o->sel;
			const char **list = c == 'F' ? s->filter : c == 'N' ? s->notrace : s->graph;
			size_t *n = c == 'F' ? &s->nfilter : c == 'N' ? &s->nnotrace : &s->ngraph;

			if (*n == KFT_SELECTIONS_MAX) {
				fprintf(stderr, "kft: record: %d -%c patterns at most\n",
					KFT_SELECTIONS_MAX, c);
				return -1;
			}
			list[(*n)++] = optarg;
			break;
		}
		case 'A':
		case 'R':
			if (o->sel.nargs == KFT_SELECTIONS_MAX) {
				fprintf(stderr, "kft: record: %d -A and -R at most\n",
					KFT_SELECTIONS_MAX);
				return -1;
			}
			o->sel.args_ret[o->sel.nargs] = c == 'R';
			o->sel.args[o->sel.nargs++] = optarg;
			break;
		case 'a':
			o->auto_args = true;
			break;
		case 1003:
			o->dynamic_report = true;
			break;
		case 1004:
			if (o->nlibs == 64) {
				fprintf(stderr, "kft: record: 64 --lib at most\n");
				return -1;
			}
			o->libs[o->nlibs++] = optarg;
			break;
		case 'D':
			o->sel.depth = optarg;
			break;
		case 1000:
			o->sel.cpus = optarg;
			break;
		case 1001:
			o->libcalls = true;
			if (optarg && strcmp(optarg, "all")) {
				fprintf(stderr, "kft: record: --libcalls=%s: the only word it takes "
					"is all\n", optarg);
				return -1;
			}
			o->libcalls_all = optarg != NULL;
			break;
		case 1002:
			o->no_libcalls = true;
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
		case 'P':
			o->no_prime = true;
			break;
		case 'C':
			o->no_check = true;
			break;
		case 'K':
			o->compensate = true;
			break;
		case 'Z':
			o->no_compress = true;
			break;
		case 'S':
			o->no_switches = true;
			break;
		case 1010:
			o->no_wait = true;
			break;
		case 'I':
			o->irqs = true;
			break;
		case 'k':
			o->kernel = true;
			break;
		case 'M':
			if (parse_size(optarg, &o->max_size))
				return -1;
			break;
		default:
			kft_cli_usage_error(usage);
			return -1;
		}
	}
	if (o->irqs && !o->kernel) {
		fprintf(stderr, "kft: record: --irqs goes with --kernel\n");
		return -1;
	}
	if (o->latency && (o->kernel || o->pid)) {
		fprintf(stderr, "kft: record: --latency goes with a program kft starts\n");
		return -1;
	}
	if ((o->libcalls || o->auto_args) && o->kernel) {
		fprintf(stderr, "kft: record: %s goes with a program, not --kernel\n",
			o->libcalls ? "--libcalls" : "-a");
		return -1;
	}
	if (o->nlibs && (o->kernel || o->no_check)) {
		fprintf(stderr, "kft: record: --lib goes with a program, checked\n");
		return -1;
	}
	if (o->pid && (o->kernel || o->compensate || optind < argc)) {
		fprintf(stderr, "kft: record: -p takes no program, --kernel or --compensate\n");
		return -1;
	}
	if (optind >= argc && !o->kernel && !o->pid) {
		fprintf(stderr, "kft: record: no program given\n%s", usage);
		return -1;
	}
	return 0;
}

int kft_cmd_record(int argc, char **argv)
{
	struct record_opts o = { 0 };
	struct kft_lib_list libs = { 0 };
	struct kft_patch_plans plans = { 0 };
	struct kft_hook_needs needs;
	bool plain = false;
	struct kft_record_run run = { 0 };
	struct kft_record_end end = { 0 };
	struct kft_config cfg;
	struct kft_error err;
	char prog[PATH_MAX];
	int ret = 1;

	if (kft_cli_wants_help(argc, argv, usage))
		return 0;
	if (parse_opts(argc, argv, &o))
		return 2;
	if (kft_cli_said(kft_launch_check_environment(&err), &err))
		return 1;
	kft_config_init(&cfg);
	if (o.config && kft_config_load(&cfg, o.config, &err))
		return kft_cli_fail("%s", err.msg);
	/* the config's libcalls, as --libcalls says it, unless --no-libcalls */
	o.libcalls = !o.no_libcalls && (o.libcalls || cfg.libcalls);
	o.libcalls_all = o.libcalls && (o.libcalls_all || cfg.libcalls_all);
	if (o.libcalls && o.kernel) {
		kft_config_release(&cfg);
		return kft_cli_fail("record: %s: libcalls goes with a program, not --kernel",
				    o.config);
	}
	if (kft_cli_said(kft_selections_apply(&cfg, &o.sel, &err), &err)) {
		kft_config_release(&cfg);
		return 1;
	}
	if (o.pid) {
		ret = attach(&o, &cfg);
		goto out;
	}
	if (o.latency) {
		/* rings: the trace keeps the latest calls, the copy the worst */
		cfg.overwrite = true;
		if (!cfg.logentries_set)
			cfg.logentries = LATENCY_RING;
	}
	if (o.kernel)
		return record_kernel(&cfg, &o, argc - optind, argv + optind);
	ret = kft_launch_find_program(argv[optind], prog, sizeof(prog), &err);
	if (ret) {
		kft_cli_said(-1, &err);
		goto out;
	}
	ret = 1;
	if (choose_libs(&o, prog, 0, &libs))
		goto out;
	if (!o.no_check &&
	    (kft_cli_said(kft_record_check_program(prog, &cfg, o.config ? o.config : "config",
						   o.libcalls, o.libcalls_all, &libs, &plain,
						   stderr, &err),
			  &err) ||
	     (o.latency && kft_cli_said(kft_record_check_latency_func(prog, o.latency, &err), &err))))
		goto out;
	if (o.sel.nargs && cfg.args.n >= o.sel.nargs &&
	    kft_cli_said(kft_auto_args_bare(&cfg, cfg.args.n - o.sel.nargs, o.sel.args,
					    o.sel.args_ret, o.sel.nargs,
					    prog, stderr, &err), &err))
		goto out;
	if (o.auto_args && kft_cli_said(kft_auto_args(&cfg, prog, o.libcalls, o.libcalls_all, stderr,
							       &err), &err))
		goto out;
	needs = (struct kft_hook_needs){ &cfg, o.latency };
	if (kft_cli_said(kft_patch_plans_make(prog, plain, &libs, &needs, &plans, &err), &err))
		goto out;
	say_plans(&plans, argv[optind], &libs, "as it loads", o.dynamic_report);
	run.plans = &plans;
	run.cfg = &cfg;
	run.prog = prog;
	run.argc = argc - optind;
	run.argv = argv + optind;
	run.dir = o.dir;
	run.primed = cfg.prime || !o.no_prime;
	run.mode = (o.compensate ? KFT_MODE_COMPENSATE : 0) |
		   (o.no_compress ? KFT_MODE_NO_COMPRESS : 0) |
		   (o.libcalls ? KFT_MODE_LIBCALLS : 0) |
		   (o.libcalls_all ? KFT_MODE_LIBCALLS_ALL : 0);
	run.max_size = o.max_size;
	run.switches = !o.no_switches;
	run.no_wait = o.no_wait;
	run.latency = o.latency;
	run.needs = &needs;
	run.said = say_started;
	run.said_ctx = &o.dynamic_report;
	if (kft_cli_said(kft_record_program(&run, &end, stderr, &err), &err))
		goto out;
	ret = end.status;
	if (!end.trace_kept)
		goto out;
	/* with --no-compress, the files are still cut down to what they hold */
	record_finish(o.dir, true, o.no_compress);
	if (end.latency_copy)
		record_finish(end.latency_copy, false, false);
out:
	kft_patch_plans_free(&plans);
	kft_lib_list_free(&libs);
	free(end.latency_copy);
	kft_config_release(&cfg);
	return ret;
}
