// SPDX-License-Identifier: GPL-2.0-only
/* kft: dispatch to the subcommands. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
	"usage: kft <command> [options]\n"
	"\n"
	"Record every function call of a C program, the KFT way, and read it back.\n"
	"\n"
	"commands:\n"
	"  record   run a program and trace its calls (built with an instrumentation\n"
	"           flag, or as it is: patched as it loads)\n"
	"           (--kernel: trace the kernel through ftrace)\n"
	"  log      print a trace in the /proc/kft_data layout\n"
	"  kd       where the time went: per-function totals and call trees (kd)\n"
	"  addr2sym turn addresses in a text log into function names\n"
	"  sym2addr turn function names in a config into addresses\n"
	"  ftrace   print a trace as ftrace's function_graph or function tracer\n"
	"  export   write a trace for other tools: Perfetto, Chrome JSON, folded stacks\n"
	"  flame    draw a trace's flame graph as an SVG file a browser opens\n"
	"  stats    how often and how regularly functions ran: intervals, durations\n"
	"  diff     what changed between two traces, per function and call path\n"
	"  latency  a function's longest call, as ftrace's latency_trace showed it\n"
	"  status   print the run state and config, as /proc/kft did\n"
	"  pipe     print a running trace's calls as they end, as trace_pipe\n"
	"  embed    write C that makes a program trace itself, without kft record\n"
	"  functions list the functions a program's filters can name\n"
	"  compress compress what a trace still holds raw (kft record does it itself)\n"
	"  prime    arm the start trigger of a running trace\n"
	"  start    start a running trace now\n"
	"  stop     stop a running trace now\n"
	"  tracing  turn a running trace's logging off and on (ftrace's tracing_on)\n"
	"  config   install a new config into a running trace, as a new run\n"
	"  kernel   trace the Linux kernel step by step (config, prime, start, stop,\n"
	"           status, data); `kft record --kernel` does it in one go\n"
	"\n"
	"`kft <command> --help` tells more, and so does `man kft-<command>` (installed\n"
	"by `make install`; in the source tree, `man docs/kft-<command>.1`).\n";

int kft_cli_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("kft: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

void kft_cli_say(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "kft: %s\n", line);
}

int kft_cli_said(int ret, const struct kft_error *err)
{
	return ret ? kft_cli_fail("%s", err->msg) : 0;
}

bool kft_cli_wants_help(int argc, char **argv, const char *text)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(text, stdout);
			return true;
		}
	}
	return false;
}

void kft_cli_usage_error(const char *text)
{
	const char *end = strstr(text, "\n\n"), *cmd = text + strlen("usage: ");
	size_t len = strcspn(cmd, " \n");

	/* the synopsis, and where the rest is, as git and perf say it */
	fprintf(stderr, "%.*s\n", end ? (int)(end - text) : (int)strlen(text), text);
	if (!strncmp(cmd, "kft ", 4))
		len = 4 + strcspn(cmd + 4, " \n");
	fprintf(stderr, "Run '%.*s --help' for what each option does.\n", (int)len, cmd);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(int, char **);
	} cmds[] = {
		{ "record", kft_cmd_record },
		{ "log", kft_cmd_log },
		{ "status", kft_cmd_status },
		{ "ftrace", kft_cmd_ftrace },
		{ "kd", kft_cmd_kd },
		{ "export", kft_cmd_export },
		{ "flame", kft_cmd_flame },
		{ "stats", kft_cmd_stats },
		{ "diff", kft_cmd_diff },
		{ "latency", kft_cmd_latency },
		{ "addr2sym", kft_cmd_addr2sym },
		{ "sym2addr", kft_cmd_sym2addr },
		{ "prime", kft_cmd_control },
		{ "start", kft_cmd_control },
		{ "stop", kft_cmd_control },
		{ "tracing", kft_cmd_control },
		{ "config", kft_cmd_config },
		{ "kernel", kft_cmd_kernel },
		{ "compress", kft_cmd_compress },
		{ "functions", kft_cmd_functions },
		{ "pipe", kft_cmd_pipe },
		{ "embed", kft_cmd_embed },
	};

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("kft %s\n", KFT_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name)) {
			char name[64];

			/* getopt's messages name the command as "kft log" */
			snprintf(name, sizeof(name), "kft %s", cmds[i].name);
			argv[1] = name;
			return cmds[i].run(argc - 1, argv + 1);
		}
	fprintf(stderr, "kft: '%s' is not a kft command\n\n%s", argv[1], usage);
	return 2;
}
