// SPDX-License-Identifier: GPL-2.0-only
/* kft functions: what a program's funclist, notrace and graph lists may
 * name, as ftrace's available_filter_functions. */
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../symbols/elf-symtab.h"
#include "cli.h"

static const char usage[] =
	"usage: kft functions PROG|PID [GLOB...]\n"
	"\n"
	"List the functions of PROG (a path, or a name found in PATH), or of the\n"
	"program process PID runs, that kft record's filters can name: one a line,\n"
	"sorted, as the symbol table has them (C++ names mangled, as globs match\n"
	"them). With GLOBs, only the functions one of them matches (foo*, *foo,\n"
	"*foo*, f?o, [ab]*), as -F, -N and -G would take them. Functions of the\n"
	"shared libraries the program loads are not listed.\n";

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool wanted(const char *name, char **globs, int nglobs)
{
	if (!nglobs)
		return true;
	for (int i = 0; i < nglobs; i++)
		if (!fnmatch(globs[i], name, 0))
			return true;
	return false;
}

int cmd_functions(int argc, char **argv)
{
	char path[PATH_MAX];
	struct kft_elf elf;
	struct kft_error err;
	const char **names;
	size_t n = 0;
	char *end;
	long pid;

	if (wants_help(argc, argv, usage))
		return 0;
	if (argc < 2)
		return fail("functions: expected PROG or PID\n%s", usage);
	pid = strtol(argv[1], &end, 10);
	if (*argv[1] && !*end && pid > 0)
		snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
	else if (find_program(argv[1], path, sizeof(path)))
		return fail("functions: %s: program not found or not executable", argv[1]);
	if (kft_elf_open(&elf, path, &err))
		return fail("%s%s", err.msg,
			    pid > 0 && !*end ? " (no such process, or not yours to read)" : "");
	names = malloc((elf.nsyms ? elf.nsyms : 1) * sizeof(*names));
	if (!names) {
		kft_elf_close(&elf);
		return fail("out of memory");
	}
	for (size_t i = 0; i < elf.nsyms; i++)
		if (wanted(elf.syms[i].name, argv + 2, argc - 2))
			names[n++] = elf.syms[i].name;
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++)
		if (!i || strcmp(names[i], names[i - 1]))
			puts(names[i]);
	free(names);
	kft_elf_close(&elf);
	if (!n && argc > 2)
		return fail("functions: no function of %s matches", argv[1]);
	return 0;
}
