// SPDX-License-Identifier: GPL-2.0-only
/* kft functions: what a program's funclist, notrace and graph lists may
 * name, as ftrace's available_filter_functions. */
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../symbols/elf-symtab.h"
#include "../record/launch.h"
#include "../record/target.h"
#include "cli.h"

static const char usage[] =
	"usage: kft functions PROG|PID [GLOB...]\n"
	"\n"
	"List the functions of PROG (a path, or a name found in PATH), or of the\n"
	"program process PID runs, that kft record's filters can name: one a line,\n"
	"sorted, as the symbol table has them (C++ names mangled, as globs match\n"
	"them). With GLOBs, only the functions one of them matches (foo*, *foo,\n"
	"*foo*, f?o, [ab]*), as -F, -N and -G would take them. For a PID, the\n"
	"functions of the shared libraries it has loaded follow, each as\n"
	"'name [library]', as available_filter_functions shows a module's.\n";

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

/* The functions of one ELF file that a glob wants, sorted, each once,
 * with " [lib]" after it for a library: how many, or -1 (said). */
static long list_object(const char *path, const char *lib, char **globs, int nglobs)
{
	struct kft_elf elf;
	struct kft_error err;
	const char **names;
	size_t n = 0;

	if (kft_elf_open(&elf, path, &err))
		return lib ? 0 : -kft_cli_fail("%s", err.msg); /* a library kft cannot read: none */
	names = malloc((elf.nsyms ? elf.nsyms : 1) * sizeof(*names));
	if (!names) {
		kft_elf_close(&elf);
		return -kft_cli_fail("out of memory");
	}
	for (size_t i = 0; i < elf.nsyms; i++)
		if (wanted(elf.syms[i].name, globs, nglobs))
			names[n++] = elf.syms[i].name;
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++)
		if (!i || strcmp(names[i], names[i - 1]))
			printf(lib ? "%s [%s]\n" : "%s\n", names[i], lib);
	free(names);
	kft_elf_close(&elf);
	return (long)n;
}

/* Listing the libraries of a process: what is left out, and the sum. */
struct libraries {
	char exe[PATH_MAX], last[PATH_MAX];
	char **globs;
	int nglobs;
	long total;
	bool failed;		/* list_object said why */
};

static int list_library(struct kft_mapping *m, void *arg)
{
	struct libraries *l = arg;
	long n;

	if (m->perms[2] != 'x' || m->deleted || !strcmp(m->path, l->exe) ||
	    !strcmp(m->path, l->last))
		return 0;
	snprintf(l->last, sizeof(l->last), "%s", m->path);
	n = list_object(m->path, strrchr(m->path, '/') + 1, l->globs, l->nglobs);
	if (n < 0)
		l->failed = true;
	else
		l->total += n;
	return l->failed;
}

/* The shared libraries process pid has mapped to run (executable
 * mappings of files other than its program), each once, in map order. */
static long list_libraries(long pid, char **globs, int nglobs)
{
	struct libraries l = { .globs = globs, .nglobs = nglobs };
	char path[64];
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
	len = readlink(path, l.exe, sizeof(l.exe) - 1);
	l.exe[len > 0 ? len : 0] = '\0';
	/* a map that cannot be read lists no library */
	kft_each_mapping(pid, list_library, &l);
	return l.failed ? -1 : l.total;
}

int kft_cmd_functions(int argc, char **argv)
{
	struct kft_error err;
	char path[PATH_MAX];
	long n, libs = 0;
	char *end;
	long pid;

	if (kft_cli_wants_help(argc, argv, usage))
		return 0;
	if (argc < 2)
		return kft_cli_fail("functions: expected PROG or PID\n%s", usage);
	pid = strtol(argv[1], &end, 10);
	if (*argv[1] && !*end && pid > 0)
		snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
	else if (kft_launch_find_program(argv[1], path, sizeof(path), &err))
		return kft_cli_fail("functions: %s", err.msg);
	n = list_object(path, NULL, argv + 2, argc - 2);
	if (n < 0) {
		if (pid > 0 && !*end)
			fprintf(stderr, "kft: (no such process %ld, or not yours to read)\n", pid);
		return 1;
	}
	if (pid > 0 && !*end && (libs = list_libraries(pid, argv + 2, argc - 2)) < 0)
		return 1;
	if (!n && !libs && argc > 2)
		return kft_cli_fail("functions: no function of %s matches", argv[1]);
	return 0;
}
