// SPDX-License-Identifier: GPL-2.0-only
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "../symbols/dwarf-params.h"
#include "../symbols/elf-symtab.h"
#include "libraries.h"
#include "program-check.h"

/* Whether the library at path has r's function; *hooked: it calls kft's
 * hooks itself (instrumented), so its calls are seen as the program's. */
static bool lib_has(const char *path, const struct kft_func_ref *r, bool *hooked)
{
	struct kft_elf elf;
	uint64_t addr;
	bool found;

	if (kft_elf_open(&elf, path, NULL))
		return false;
	found = kft_is_glob(r->name) ? kft_elf_find_glob(&elf, r->name, NULL, 0)
				     : kft_elf_find(&elf, r->name, &addr, 1);
	*hooked = elf.instrumented;
	kft_elf_close(&elf);
	return found;
}

/* Whether one of the libraries to patch (--lib) has r's function. */
static bool in_patched_libs(const struct kft_lib_list *libs, const struct kft_func_ref *r)
{
	bool hooked;

	for (size_t i = 0; libs && i < libs->n; i++)
		if (lib_has(libs->v[i].path, r, &hooked))
			return true;
	return false;
}

/* The library among those prog loads at start (*needed, read at the
 * first call) that has r's function, or NULL; *hooked as lib_has says. */
static const struct kft_loaded_lib *in_needed_libs(const char *prog, struct kft_lib_list *needed,
						   bool *read, const struct kft_func_ref *r,
						   bool *hooked)
{
	struct kft_error ignored;

	if (!*read) {
		*read = true;
		if (kft_libraries_of(prog, needed, &ignored))
			kft_lib_list_free(needed);
	}
	for (size_t i = 0; i < needed->n; i++)
		if (lib_has(needed->v[i].path, r, hooked))
			return &needed->v[i];
	return NULL;
}

/* Whether the args statement's function r, which path's own code has,
 * can have its arguments and return value saved: the -pg hooks and
 * patched entries (of a patchable build, or of one built without
 * instrumentation) see the registers that hold them,
 * -finstrument-functions' hooks do not. 0, or -1 said. */
static int args_seen(const struct kft_elf *elf, const struct kft_func_ref *r, const char *where,
		     const char *path, struct kft_error *err)
{
	if (elf->calls_pg_hooks || elf->patch_size || !elf->instrumented)
		return 0;	/* (not instrumented: its entries are patched) */
	return kft_error_set(err, "%s'%s': its arguments and return value cannot be saved: %s was "
			    "built with\n-finstrument-functions, whose hooks are called where "
			    "they may have left their\nregisters; rebuild it with -pg, -pg "
			    "-mfentry or -fpatchable-function-entry=5\n(library calls under "
			    "--libcalls show them whatever the program was built with)",
			    where, r->name, path);
}

/* Where reference r was made, as an error begins: "FILE:LINE: ", or
 * "kft record: " for an option's (it has no line). */
static const char *ref_where(const struct kft_func_ref *r, const char *cfgname, char *buf,
			     size_t size)
{
	if (r->line)
		snprintf(buf, size, "%s:%u: ", cfgname, r->line);
	else
		snprintf(buf, size, "kft record: ");
	return buf;
}

/* With -pg (mcount, called after the prologue), the args statement's
 * functions whose floating-point registers the debug information says
 * may not hold their arguments at the hook (a double passed on the
 * stack: unoptimized code loads it through xmm0 first) are refused if
 * their spec names one. Without debug information nothing is known:
 * nothing is refused. 0, or -1 said. */
static int fp_args_seen(const struct kft_elf *elf, const struct kft_config *cfg,
			const char *cfgname, const char *path, struct kft_error *err)
{
	struct kft_dwarf_funcs funcs = { 0 };
	struct kft_error ignored;
	bool read = false;
	int ret = 0;

	if (!elf->calls_mcount)
		return 0;
	for (size_t i = 0; i < cfg->args.n && !ret; i++) {
		const struct kft_func_ref *r = &cfg->args.refs[i];
		const struct kft_argspec *spec = &cfg->argspecs[i];
		bool fp = false;

		for (unsigned int k = 0; k < spec->n; k++)
			fp |= spec->item[k].slot >= KFT_ARGSLOT_FP0 &&
			      spec->item[k].slot < KFT_ARGSLOT_STACK0;
		if (!fp || !r->name || kft_is_glob(r->name))
			continue;
		if (!read) {
			read = true;
			if (kft_dwarf_funcs_read(elf, path, &funcs, &ignored))
				return 0;
		}
		for (size_t k = 0; k < funcs.n; k++)
			if (funcs.v[k].fp_unsure && !strcmp(funcs.v[k].name, r->name)) {
				char where[PATH_MAX + 16];

				ref_where(r, cfgname, where, sizeof(where));
				ret = kft_error_set(err, "%s'%s': its floating-point arguments cannot "
						    "be saved: %s calls mcount (-pg) after the "
						    "prologue,\nwhich may have used xmm0 for the "
						    "double it takes on the stack; rebuild it\nwith "
						    "-pg -mfentry or -fpatchable-function-entry=5, "
						    "or leave out its fpargs",
						    where, r->name, path);
				break;
			}
	}
	kft_dwarf_funcs_free(&funcs);
	return ret;
}

int kft_record_check_program(const char *path, const struct kft_config *cfg,
			     const char *cfgname, bool libcalls, bool libcalls_all,
			     const struct kft_lib_list *libs, bool *plain, FILE *notes,
			     struct kft_error *err)
{
	struct kft_elf elf;
	const struct kft_func_ref *refs[2 + 4 * KFT_MAX_FUNCLIST];
	struct kft_lib_list needed = { 0 };
	bool needed_read = false, hooked = false;
	const struct kft_loaded_lib *lib;
	size_t nrefs = 0, args_from;
	char magic[256] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got = -1;
	int ret = 0;

	if (fd >= 0) {
		got = read(fd, magic, sizeof(magic) - 1);
		close(fd);
	}
	if (got >= 2 && magic[0] == '#' && magic[1] == '!') {
		/* its interpreter is planned as it starts, as the programs it
		 * runs are (record/plan-server.c) */
		magic[strcspn(magic, "\n")] = '\0';
		fprintf(notes, "kft: note: %s is a script: its interpreter (%s) and the programs "
			"it starts are traced\n", path, magic + 2 + strspn(magic + 2, " \t"));
		return 0;
	}
	if (got < 4 || memcmp(magic, "\177ELF", 4))
		return 0;	/* (what exec makes of it, kft record says) */
	if (kft_elf_open(&elf, path, err))
		return -1;
	if (!elf.has_interp) {
		ret = kft_error_set(err, "%s is statically linked: kft needs a dynamically linked "
				   "program "
				   "(drop -static)",
				   path);
		goto out;
	}
	if (!elf.instrumented && !plain) {
		ret = kft_error_set(err, "%s is not instrumented: kft record -p follows a program built "
				   "with\n-finstrument-functions (or -pg, -pg -mfentry, "
				   "-fpatchable-function-entry=5); one built\nwithout is traced when "
				   "kft record starts it",
				   path);
		goto out;
	}
	if (plain)
		*plain = !elf.instrumented;
	/* patched entries come from libkft's constructor, which runs after
	 * the program's .preinit_array functions */
	if (elf.patch_size && elf.preinit)
		fprintf(notes, "kft: note: %s runs code from its .preinit_array before kft can "
			"patch its function entries: calls made there are not traced (build "
			"with -finstrument-functions or -pg to trace them)\n", path);
	if (cfg->start.func.name)
		refs[nrefs++] = &cfg->start.func;
	if (cfg->stop.func.name)
		refs[nrefs++] = &cfg->stop.func;
	for (size_t i = 0; i < cfg->nfuncs; i++)
		if (cfg->funcs[i].name)
			refs[nrefs++] = &cfg->funcs[i];
	for (size_t i = 0; i < cfg->skip_list.n; i++)
		if (cfg->skip_list.refs[i].name)
			refs[nrefs++] = &cfg->skip_list.refs[i];
	for (size_t i = 0; i < cfg->graph.n; i++)
		if (cfg->graph.refs[i].name)
			refs[nrefs++] = &cfg->graph.refs[i];
	args_from = nrefs;
	for (size_t i = 0; i < cfg->args.n; i++)
		if (cfg->args.refs[i].name)
			refs[nrefs++] = &cfg->args.refs[i];
	for (size_t i = 0; i < nrefs && !ret; i++) {
		const struct kft_func_ref *r = refs[i];
		char where[PATH_MAX + 16];
		uint64_t addr;

		ref_where(r, cfgname, where, sizeof(where));
		if (kft_is_glob(r->name) && (r == &cfg->start.func || r == &cfg->stop.func))
			ret = kft_error_set(err, "%s'%s': a trigger names one function, not a glob",
					   where, r->name);
		else if (kft_is_glob(r->name) ? kft_elf_find_glob(&elf, r->name, NULL, 0)
					     : kft_elf_find(&elf, r->name, &addr, 1))
			ret = i >= args_from ? args_seen(&elf, r, where, path, err) : 0;
		else if (in_patched_libs(libs, r))
			ret = 0;	/* (patched entries: their arguments are seen) */
		else if (kft_elf_find_imports(&elf, r->name))
			ret = libcalls ? 0
				       : kft_error_set(err, "%s'%s': %s calls it in a shared library: add "
						      "--libcalls to trace those calls",
						      where, r->name, path);
		else if (libcalls_all)
			/* the libraries' calls into each other are found as they load */
			fprintf(notes, "kft: note: %s'%s': not in %s nor among the functions it "
				"imports: looked for in the calls between its libraries "
				"(--libcalls=all)\n",
				where, r->name, path);
		else if ((lib = in_needed_libs(path, &needed, &needed_read, r, &hooked)) && hooked)
			ret = 0;	/* (an instrumented library: its hooks see it) */
		else if (lib)
			fprintf(notes, "kft: note: %s'%s': in %s, built without instrumentation: "
				"its calls are traced with --lib %s (or, from the other libraries, "
				"--libcalls=all)\n", where, r->name, lib->path, lib->name);
		else
			ret = kft_error_set(err, "%s'%s': no function %s in %s nor in the libraries "
					   "it loads (one it opens with dlopen: use --no-check)",
					   where, r->name,
					   kft_is_glob(r->name) ? "matches it" : "of that name",
					   path);
	}
	if (!ret)
		ret = fp_args_seen(&elf, cfg, cfgname, path, err);
out:
	kft_lib_list_free(&needed);
	kft_elf_close(&elf);
	return ret;
}

int kft_record_check_latency_func(const char *prog, const char *func, struct kft_error *err)
{
	struct kft_elf elf;
	uint64_t addr;
	bool found;

	if (kft_is_glob(func))
		return kft_error_set(err, "record: --latency %s: one function, not a glob", func);
	if (kft_elf_open(&elf, prog, NULL))
		return 0;	/* kft_record_check_program has said what it could */
	found = kft_elf_find(&elf, func, &addr, 1);
	kft_elf_close(&elf);
	return found ? 0
		     : kft_error_set(err, "record: --latency %s: no function of that name in %s (if it "
				    "lives in a shared library, use --no-check)",
				    func, prog);
}

