// SPDX-License-Identifier: GPL-2.0-only
/* kft addr2sym: addresses in text to function names, columns kept. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../symbols/rewrite.h"
#include "cli.h"

static const char usage[] =
	"usage: kft addr2sym [FILE...] -m MAP [-b BASE]\n"
	"\n"
	"Copy FILEs (or stdin) to stdout with every 0x address, in upper or lower\n"
	"case, replaced by the function it falls in: 'name' at its first byte,\n"
	"'name+0xoff' inside it. The text after an address keeps its column. An\n"
	"address outside the map stays as it is.\n"
	"\n"
	"  -m MAP   a System.map, /proc/kallsyms (module symbols too) or an ELF\n"
	"           file; only text (function) symbols are used\n"
	"  -b BASE  where MAP, a position-independent program (PIE) or a library,\n"
	"           was loaded (0x...); again for more. Without it, the text's\n"
	"           'Load base of MAP: 0x...' lines say (kft log --raw writes them)\n"
	"\n"
	"For example, a raw kernel log: kft addr2sym kft.log -m System.map > kft.lst\n";

int kft_cmd_addr2sym(int argc, char **argv)
{
	const char *map = NULL;
	struct kft_symmap m;
	struct kft_addr2sym a = { .map = &m };
	struct kft_error err;
	int nfiles = 0, ret = 0;

	if (kft_cli_wants_help(argc, argv, usage))
		return 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-m")) {
			if (i + 1 >= argc)
				return kft_cli_fail("addr2sym: missing map file name after -m");
			map = argv[++i];
		} else if (!strcmp(argv[i], "-b")) {
			char *end;

			if (i + 1 >= argc)
				return kft_cli_fail("addr2sym: missing load base after -b");
			errno = 0;
			a.bases[a.nbases] = strtoull(argv[++i], &end, 16);
			if (errno || *end || strncmp(argv[i], "0x", 2))
				return kft_cli_fail("addr2sym: '%s': not a load base (0x and hex "
						    "digits)",
						    argv[i]);
			if (++a.nbases == KFT_ADDR2SYM_BASES)
				return kft_cli_fail("addr2sym: %d load bases at "
						    "most",
						    KFT_ADDR2SYM_BASES);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return kft_cli_fail("addr2sym: unknown option '%s'\n%s", argv[i], usage);
		}
	}
	if (!map)
		return kft_cli_fail("addr2sym: no map file specified (-m MAP)\n%s", usage);
	if (kft_symmap_load(&m, map, &err))
		return kft_cli_fail("%s", err.msg);
	for (int i = 1; i < argc && !ret; i++) {
		FILE *f;

		if (!strcmp(argv[i], "-m") || !strcmp(argv[i], "-b")) {
			i++;
			continue;
		}
		nfiles++;
		f = strcmp(argv[i], "-") ? fopen(argv[i], "re") : stdin;
		if (!f) {
			ret = kft_cli_fail("addr2sym: %s: cannot open it", argv[i]);
			break;
		}
		if (kft_addr2sym_stream(stdout, &a, f))
			ret = kft_cli_fail("addr2sym: %s: read error", argv[i]);
		if (f != stdin)
			fclose(f);
	}
	if (!nfiles && kft_addr2sym_stream(stdout, &a, stdin))
		ret = kft_cli_fail("addr2sym: read error on stdin");
	/* a PIE's addresses mean nothing without where it was loaded */
	if (!ret && m.pie && !a.nbases && a.missed)
		ret = kft_cli_fail("addr2sym: %s is position-independent (a PIE or a library) and "
				   "the "
				   "text does not say where it was loaded: %" PRIu64 " addresses "
										     "left as "
				   "they were. Give the log of `kft log --raw`, whose 'Load base "
				   "of' lines "
				   "say it, or -b BASE",
				   map, a.missed);
	kft_symmap_free(&m);
	return ret;
}
