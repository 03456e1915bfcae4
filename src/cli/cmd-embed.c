// SPDX-License-Identifier: GPL-2.0-only
/*
 * kft embed: a static run, as KFT's kftstatic.conf and mkkftrun.pl built
 * one into the kernel. It writes C that holds the config (checked here,
 * so the program never meets a bad one); linked with the program and
 * libkft, the program traces itself without kft record (the runtime's
 * static-run.c).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../config/config.h"
#include "cli.h"

static const char usage[] =
	"usage: kft embed CONFIG [-o FILE.c] [-d DIR]\n"
	"\n"
	"Write C (to FILE.c, or stdout) that makes a program trace itself, from\n"
	"its first instrumented call (constructors included), with no kft record\n"
	"and no LD_PRELOAD: compile it with the program and link with -lkft. Run\n"
	"alone, the program makes a new trace directory: $KFT_DIR, else DIR\n"
	"(default kft.data), or DIR.1, DIR.2, ... when that is taken. Under kft\n"
	"record, kft record's trace and config win.\n"
	"\n"
	"  -o FILE.c   where to write the C (default: stdout)\n"
	"  -d DIR      the trace directory's default name\n";

/* s as C string literals, a line of it each, the first after lead. */
static void put_literal_lines(FILE *out, const char *lead, const char *s)
{
	fprintf(out, "%s\"", lead);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n') {
			fputs(s[1] ? "\\n\"\n\t\"" : "\\n", out);
		} else if (c == '\t') {
			fputs("\\t", out);
		} else if (c == '"' || c == '\\') {
			fprintf(out, "\\%c", c);
		} else if (c < 0x20 || c >= 0x7f) {
			fprintf(out, "\\%03o", c);
		} else {
			fputc(c, out);
		}
	}
	fputs("\"", out);
}

static int write_embed(FILE *out, const char *config, const char *text, const char *dir)
{
	fprintf(out,
		"/*\n"
		" * A static run of kft, written by `kft embed %s`.\n"
		" * Compile this file with the program (it holds data only: it needs no\n"
		" * instrumentation) and link with -lkft, e.g.\n"
		" *     cc -finstrument-functions -o prog prog.c kft-static.c -lkft\n"
		" * Run alone, prog traces itself into $KFT_DIR, else the directory\n"
		" * below (or NAME.1, NAME.2, ... when that is taken); read the trace\n"
		" * with kft log, kft kd, kft ftrace.\n"
		" */\n"
		"extern const char kft_embedded_config[];\n"
		"extern const char kft_embedded_dir[];\n"
		"extern int kft_start(void);\n\n"
		"/* a reference into libkft, so that a linker that drops unused\n"
		" * libraries (--as-needed) keeps it for a program whose calls do not\n"
		" * name it (-fpatchable-function-entry) */\n"
		"int (*const kft_embedded_link)(void) = kft_start;\n\n"
		"const char kft_embedded_config[] =\n",
		strstr(config, "*/") ? "CONFIG" : config);
	put_literal_lines(out, "\t", text);
	fputs(";\n\nconst char kft_embedded_dir[] = ", out);
	put_literal_lines(out, "", dir);
	fputs(";\n", out);
	return ferror(out) ? -1 : 0;
}

int kft_cmd_embed(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "dir", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	const char *outpath = NULL, *dir = KFT_DEFAULT_DIR;
	struct kft_config cfg;
	struct kft_error err;
	char *text;
	FILE *out = stdout;
	int c, ret;

	if (kft_cli_wants_help(argc, argv, usage))
		return 0;
	while ((c = getopt_long(argc, argv, "o:d:", longopts, NULL)) != -1) {
		if (c == 'o')
			outpath = optarg;
		else if (c == 'd')
			dir = optarg;
		else {
			kft_cli_usage_error(usage);
			return 2;
		}
	}
	if (argc - optind != 1)
		return kft_cli_fail("embed: one CONFIG file\n%s", usage);
	if (!*dir)
		return kft_cli_fail("embed: -d: an empty directory name");
	if (kft_config_load(&cfg, argv[optind], &err))
		return kft_cli_fail("%s", err.msg);
	text = kft_config_format(&cfg);
	kft_config_release(&cfg);
	if (!text)
		return kft_cli_fail("out of memory");
	if (outpath && !(out = fopen(outpath, "we"))) {
		free(text);
		return kft_cli_fail("embed: %s: cannot write it", outpath);
	}
	ret = write_embed(out, argv[optind], text, dir);
	free(text);
	if ((outpath && fclose(out)) || ret)
		return kft_cli_fail("embed: %s: write failed", outpath ? outpath : "stdout");
	return 0;
}
