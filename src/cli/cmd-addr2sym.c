// SPDX-License-Identifier: GPL-2.0-only
/* kft addr2sym: addresses in text to function names, columns kept. */
#include <stdlib.h>
#include <string.h>

#include "../symbols/rewrite.h"
#include "cli.h"

static const char usage[] =
	"usage: kft addr2sym [FILE...] -m MAP\n"
	"\n"
	"Copy FILEs (or stdin) to stdout with every 0x address, in upper or lower\n"
	"case, replaced by the function it falls in: 'name' at its first byte,\n"
	"'name+0xoff' inside it. The text after an address keeps its column. An\n"
	"address outside the map stays as it is.\n"
	"\n"
	"  -m MAP   a System.map, /proc/kallsyms (module symbols too) or an ELF\n"
	"           file; only text (function) symbols are used\n"
	"\n"
	"For example, a raw kernel log: kft addr2sym kft.log -m System.map > kft.lst\n";

int cmd_addr2sym(int argc, char **argv)
{
	const char *map = NULL;
	struct kft_symmap m;
	struct kft_error err;
	int nfiles = 0, ret = 0;

	if (wants_help(argc, argv, usage))
		return 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-m")) {
			if (i + 1 >= argc)
				return fail("addr2sym: missing map file name after -m");
			map = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return fail("addr2sym: unknown option '%s'\n%s", argv[i], usage);
		}
	}
	if (!map)
		return fail("addr2sym: no map file specified (-m MAP)\n%s", usage);
	if (kft_symmap_load(&m, map, &err))
		return fail("%s", err.msg);
	for (int i = 1; i < argc && !ret; i++) {
		FILE *f;

		if (!strcmp(argv[i], "-m")) {
			i++;
			continue;
		}
		nfiles++;
		f = strcmp(argv[i], "-") ? fopen(argv[i], "re") : stdin;
		if (!f) {
			ret = fail("addr2sym: %s: cannot open it", argv[i]);
			break;
		}
		if (kft_addr2sym_stream(stdout, &m, f))
			ret = fail("addr2sym: %s: read error", argv[i]);
		if (f != stdin)
			fclose(f);
	}
	if (!nfiles && kft_addr2sym_stream(stdout, &m, stdin))
		ret = fail("addr2sym: read error on stdin");
	kft_symmap_free(&m);
	return ret;
}
