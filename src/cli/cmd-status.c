// SPDX-License-Identifier: GPL-2.0-only
/* kft status: the run's state and config, as /proc/kft printed them. */
#include <stdio.h>
#include <string.h>

#include "../views/views.h"
#include "../record/target.h"
#include "cli.h"

static const char usage[] =
	"usage: kft status [--no-demangle] [DIR|PID]\n"
	"\n"
	"Print the state of the run in DIR (default kft.data), or of the traced\n"
	"process PID, while the program\n"
	"runs or after: 'status: run id N, [not ]primed, [not ]triggered,\n"
	"[not ]complete', the config as given, then why and when the run started\n"
	"and stopped, the entries logged and the deepest stack seen.\n"
	"\n"
	"  --no-demangle  C++ and Rust names as the symbol table has them\n";

int kft_cmd_status(int argc, char **argv)
{
	struct kft_symbolizer *sz;
	struct kft_trace tr;
	struct kft_error err;
	char dir[4096];

	if (kft_cli_wants_help(argc, argv, usage))
		return 0;
	if (argc > 1 && !strcmp(argv[1], "--no-demangle")) {
		kft_cli_no_demangle = true;
		argv++;
		argc--;
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-'))
		return kft_cli_fail("status: usage: kft status [--no-demangle] [DIR|PID]");
	if (kft_cli_said(
		kft_trace_target(argc == 2 ? argv[1] : KFT_DEFAULT_DIR, dir, sizeof(dir), &err),
		&err) ||
	    kft_cli_open_trace_as(dir, true, KFT_OPEN_NO_SWITCHES | KFT_OPEN_NO_ARGS, &tr, &sz))
		return 1;
	kft_view_status(stdout, &tr, sz);
	kft_cli_close_trace(&tr, sz);
	return 0;
}
