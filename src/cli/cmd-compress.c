// SPDX-License-Identifier: GPL-2.0-only
/* kft compress: compress what a trace holds raw. */
#include <stdio.h>

#include "../format/compress-dir.h"
#include "cli.h"

static const char usage[] =
	"usage: kft compress [DIR]\n"
	"\n"
	"Compress the records of the trace in DIR (default kft.data) that are\n"
	"still raw: a trace recorded with --no-compress, or one whose `kft record`\n"
	"was killed before it could finish. `kft record` does this by itself when\n"
	"the program ends. The views read a trace the same, compressed or not.\n"
	"Threads of processes that still run are left as they are.\n";

int kft_cmd_compress(int argc, char **argv)
{
	struct kft_zstats st;
	struct kft_error err;
	const char *dir;

	if (kft_cli_wants_help(argc, argv, usage))
		return 0;
	if (argc > 2 || (argc == 2 && argv[1][0] == '-'))
		return kft_cli_fail("compress: usage: kft compress [DIR]");
	dir = argc == 2 ? argv[1] : KFT_DEFAULT_DIR;
	if (kft_cli_trace_missing(dir, ""))
		return 1;
	if (kft_trace_compress(dir, false, &st, &err))
		return kft_cli_fail("%s", err.msg);
	printf("%s: %llu calls compressed now; %llu thread files fully compressed",
	       dir, (unsigned long long)st.calls, (unsigned long long)st.files);
	if (st.live)
		printf(", %llu left raw (their process still runs)", (unsigned long long)st.live);
	if (st.rings)
		printf(", %llu left raw (rings, from overwrite)", (unsigned long long)st.rings);
	putchar('\n');
	return 0;
}
