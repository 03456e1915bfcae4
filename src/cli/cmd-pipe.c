// SPDX-License-Identifier: GPL-2.0-only
/*
 * kft pipe: a running trace's calls as they end, each printed once, as
 * ftrace's trace_pipe streamed the kernel's; the reading is
 * format/live-trace.c's, the printing the views'.
 */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../format/live-trace.h"
#include "../format/trace-files.h"
#include "../record/target.h"
#include "../views/views.h"
#include "cli.h"

static const char usage[] =
	"usage: kft pipe [-t log|function|function_graph] [--ns] [DIR|PID]\n"
	"\n"
	"Print the calls of the trace in DIR (default kft.data), or of the traced\n"
	"process PID, as they end, each once, while the program runs, as ftrace's\n"
	"trace_pipe; end when the program has ended and every call is printed, or\n"
	"on Ctrl-C. A call shows when it ends (records are written then), so calls\n"
	"come in the order they ended, thread by thread as they are read.\n"
	"\n"
	"  -t log             KFT's log rows: Entry, Delta, PID, Function, Caller\n"
	"                     (the default; `kft kd -` reads them)\n"
	"  -t function        ftrace's function tracer lines\n"
	"  -t function_graph  each call as a leaf, 'f();' with its duration,\n"
	"                     indented by its depth\n"
	"  --ns               log rows in nanoseconds\n"
	"  --no-demangle      C++ and Rust names as the symbol table has them\n"
	"\n"
	"The markers the program makes (kft_printf, kft_mark) come as they are\n"
	"read, each once, as '#' rows or '/* text */' lines.\n";

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

struct pipe {
	int layout;		/* 0: log rows; else the ftrace tracer + 1 */
	struct kft_log_opts log;
	struct kft_ftrace_opts ft;
	struct kft_live_trace live;
	struct kft_symbolizer *sz;	/* kept while the memory maps stay as they were */
	uint64_t maps_seen;		/* what they were: kft_live_maps_signature */
	uint64_t printed;
};

/* A look at the trace begins: the names, made anew only when the memory
 * maps changed (making them reads every object's symbol table, too much
 * for each look). */
static void look(void *ctx)
{
	struct pipe *p = ctx;
	uint64_t now = kft_live_maps_signature(p->live.dir);
	struct kft_error err;

	if (p->sz && now == p->maps_seen)
		return;
	kft_symbolizer_free(p->sz);
	p->sz = kft_symbolizer_new(p->live.dir, &err);
	if (p->sz && kft_cli_no_demangle)
		kft_symbolizer_set_demangle(p->sz, false);
	p->maps_seen = now;
}

static void print_call(void *ctx, const struct kft_trace *tr, const struct kft_call *c)
{
	struct pipe *p = ctx;

	if (p->layout)
		kft_view_ftrace_row(stdout, tr, p->sz, c, &p->ft);
	else
		kft_view_log_row(stdout, c, kft_trace_base_ns(tr), p->sz, &p->log);
	p->printed++;
}

static void print_mark(void *ctx, const struct kft_trace *tr, const struct kft_mark *m)
{
	struct pipe *p = ctx;

	if (p->layout)
		kft_view_ftrace_mark(stdout, tr, m, &p->ft);
	else
		kft_view_log_mark_row(stdout, m, kft_trace_base_ns(tr), &p->log);
	p->printed++;
}

static int parse(int argc, char **argv, struct pipe *p)
{
	static const struct option longopts[] = {
		{ "tracer", required_argument, NULL, 't' },
		{ "ns", no_argument, NULL, 'n' },
		{ "no-demangle", no_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	kft_ftrace_opts_init(&p->ft);
	while ((c = getopt_long(argc, argv, "t:", longopts, NULL)) != -1) {
		if (c == 't' && !strcmp(optarg, "log")) {
			p->layout = 0;
		} else if (c == 't' && !strcmp(optarg, "function")) {
			p->layout = 1;
			p->ft.tracer = KFT_FTRACE_FUNCTION;
		} else if (c == 't' && !strcmp(optarg, "function_graph")) {
			p->layout = 1;
			p->ft.tracer = KFT_FTRACE_GRAPH;
		} else if (c == 't') {
			return kft_cli_fail("pipe: unknown layout '%s' (log, function or "
					    "function_graph)",
					    optarg);
		} else if (c == 'n') {
			p->log.ns = true;
		} else if (c == 'D') {
			kft_cli_no_demangle = true;
		} else {
			kft_cli_usage_error(usage);
			return 2;
		}
	}
	if (argc - optind > 1)
		return kft_cli_fail("pipe: one trace directory or PID at most");
	return 0;
}

int kft_cmd_pipe(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct pipe p = { .live = { .ops = { look, print_call, print_mark, &p },
				    .stop = &interrupted } };
	struct kft_error err;
	bool last = false;
	char dir[4096];
	int ret;

	if (kft_cli_wants_help(argc, argv, usage))
		return 0;
	if ((ret = parse(argc, argv, &p)))
		return ret;
	if (kft_cli_said(kft_trace_target(optind < argc ? argv[optind] : KFT_DEFAULT_DIR, dir,
					  sizeof(dir), &err),
			 &err))
		return 1;
	p.live.dir = dir;
	if (kft_cli_trace_missing(dir, ""))
		return 1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	kft_live_catch_cut_files();
	if (p.layout)
		kft_view_ftrace_header(stdout, &p.ft);
	else
		kft_view_log_columns(stdout, &p.log);
	while (!interrupted) {
		bool again = false;
		uint64_t before = p.printed;

		ret = kft_live_look(&p.live, last, &again);
		fflush(stdout);
		/* (what the names could not be made of: once, as the other
		 * views say it when they open the trace) */
		kft_cli_symbol_warnings(p.sz);
		if (ret < 0) {
			kft_cli_fail("pipe: out of memory");
			break;
		}
		if (ret == 1 && last && !again)
			break;
		if (ret == 1 && !last) {
			kft_live_wait_finished(&p.live);
			last = true;
			continue;
		}
		/* a reader of the whole trace each time: not too often */
		if (!again)
			kft_nap_ms(p.printed == before ? 50 : 20);
	}
	kft_live_free(&p.live);
	kft_symbolizer_free(p.sz);
	fflush(stdout);
	return ret < 0 ? 1 : 0;
}
