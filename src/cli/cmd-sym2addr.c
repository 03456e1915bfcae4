// SPDX-License-Identifier: GPL-2.0-only
/* kft sym2addr: function names in a config to addresses. */
#include <stdlib.h>
#include <string.h>

#include "../symbols/rewrite.h"
#include "cli.h"

static const char usage[] =
	"usage: kft sym2addr FILE MAP\n"
	"\n"
	"Print the KFT configuration FILE with every function name replaced by its\n"
	"address in MAP (a System.map, /proc/kallsyms or an ELF file), for a\n"
	"tracer that takes addresses only. Lines, comments and keywords stay as\n"
	"they are. A name found at several addresses gives all of them inside a\n"
	"funclist, elsewhere the first (with a warning); a name not in the map is\n"
	"kept, with a warning.\n";

int kft_cmd_sym2addr(int argc, char **argv)
{
	struct kft_sym2addr_state st = { 0 };
	struct kft_symmap m;
	struct kft_error err;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	if (kft_cli_wants_help(argc, argv, usage))
		return 0;
	if (argc != 3)
		return kft_cli_fail("sym2addr: expected FILE and MAP\n%s", usage);
	f = fopen(argv[1], "re");
	if (!f)
		return kft_cli_fail("sym2addr: %s: cannot open it", argv[1]);
	if (kft_symmap_load(&m, argv[2], &err)) {
		fclose(f);
		return kft_cli_fail("%s", err.msg);
	}
	st.origin = argv[1];
	while (getline(&line, &cap, f) > 0)
		kft_sym2addr_line(stdout, stderr, &m, &st, line);
	free(line);
	fclose(f);
	kft_symmap_free(&m);
	return 0;
}
