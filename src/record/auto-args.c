// SPDX-License-Identifier: GPL-2.0-only
/* kft record -a: args statement entries from DWARF and from the C
 * library's prototypes kft knows. */
#include <stdlib.h>
#include <string.h>

#include "../symbols/dwarf-params.h"
#include "../symbols/elf-symtab.h"
#include "../symbols/libc-params.h"
#include "auto-args.h"
#include "../format/trace-files.h"

/* The program's own functions, from its debug information. */
static int own_functions(struct kft_config *cfg, const struct kft_elf *elf, const char *path,
			 FILE *notes, struct kft_error *err)
{
	struct kft_dwarf_funcs funcs;
	struct kft_error why;
	size_t added = 0, partial = 0;

	/* (a program built without instrumentation is patched: its entries
	 * see the registers, as -pg -mfentry's do) */
	if (elf->calls_hooks && !elf->calls_pg_hooks && !elf->patch_size) {
		fprintf(notes, "kft: -a: %s was built with -finstrument-functions, whose hooks "
			"do not see the registers: its own functions' arguments are not saved "
			"(-pg, -pg -mfentry or -fpatchable-function-entry=5 would)\n", path);
		return 0;
	}
	if (kft_dwarf_funcs_read(elf, path, &funcs, &why)) {
		fprintf(notes, "kft: -a: %s: its own functions' arguments are not saved\n",
			why.msg);
		return 0;
	}
	for (size_t i = 0; i < funcs.n; i++) {
		if (!funcs.v[i].spec.n)
			continue;	/* nothing it takes can be saved (fp_unsure) */
		if (kft_config_has_args(cfg, funcs.v[i].name))
			continue;
		if (kft_config_add_args(cfg, funcs.v[i].name, &funcs.v[i].spec)) {
			kft_dwarf_funcs_free(&funcs);
			return kft_error_set(err, "out of memory");
		}
		added++;
		partial += funcs.v[i].partial;
	}
	kft_dwarf_funcs_free(&funcs);
	if (partial)
		fprintf(notes, "kft: -a: %zu of %zu functions show only some of their arguments: "
			"one passed in a way kft cannot follow (long double, a variadic tail, a C++ "
			"class that does not say how it travels, a value on the stack after a "
			"struct passed there, or past its first 8 words; with -pg, a double "
			"passed there, and the floating-point registers with it) and those after "
			"it\n",
			partial,
			added);
	return 0;
}

/* The C library functions the program calls that the table knows (all:
 * those its libraries call too, which the program's imports do not say). */
static int library_calls(struct kft_config *cfg, const struct kft_elf *elf, bool all,
			 struct kft_error *err)
{
	for (size_t i = 0; i < kft_libc_params_count(); i++) {
		const char *name = kft_libc_params_name(i);
		struct kft_argspec spec;

		if (kft_config_has_args(cfg, name) || (!all && !kft_elf_find_imports(elf, name)) ||
		    kft_argspec_parse(kft_libc_params(name), &spec))
			continue;
		if (kft_config_add_args(cfg, name, &spec))
			return kft_error_set(err, "out of memory");
	}
	return 0;
}

int kft_auto_args(struct kft_config *cfg, const char *path, bool libcalls, bool libcalls_all,
		  FILE *notes, struct kft_error *err)
{
	struct kft_elf elf;
	int ret;

	if (kft_elf_open(&elf, path, err))
		return -1;
	ret = own_functions(cfg, &elf, path, notes, err);
	if (!ret && libcalls)
		ret = library_calls(cfg, &elf, libcalls_all, err);
	kft_elf_close(&elf);
	return ret;
}

int kft_auto_args_bare(struct kft_config *cfg, size_t first, const char *const *opts,
		       const bool *ret, size_t n, const char *path, FILE *notes,
		       struct kft_error *err)
{
	struct kft_dwarf_funcs funcs = { 0 };
	struct kft_error why;
	bool have = false, tried = false;
	struct kft_elf elf;

	for (size_t i = 0; i < n && first + i < cfg->args.n; i++) {
		const char *name = cfg->args.refs[first + i].name;
		struct kft_argspec *spec = &cfg->argspecs[first + i], from = { .n = 0 };
		const struct kft_dwarf_func *f = NULL;
		char said[256];

		if (!name || kft_is_glob(name) || strchr(opts[i], '@'))
			continue;	/* (a spec given is kept) */
		if (!tried) {
			tried = true;
			have = !kft_elf_open(&elf, path, NULL);
			if (have && kft_dwarf_funcs_read(&elf, path, &funcs, &why))
				memset(&funcs, 0, sizeof(funcs));
			if (have)
				kft_elf_close(&elf);
		}
		for (size_t k = 0; k < funcs.n && !f; k++)
			if (!strcmp(funcs.v[k].name, name))
				f = &funcs.v[k];
		if (!f) {
			fprintf(notes, "kft: %s %s: %s gives no types for it: %s\n",
				ret[i] ? "-R" : "-A", name, path,
				kft_argspec_str(spec, said, sizeof(said)));
			continue;
		}
		/* -A: its parameters; -R: its result */
		for (unsigned int k = 0; k < f->spec.n; k++)
			if ((f->spec.item[k].slot == KFT_ARGSLOT_RETVAL) == ret[i])
				from.item[from.n++] = f->spec.item[k];
		if (!from.n)
			fprintf(notes, "kft: %s %s: %s\n", ret[i] ? "-R" : "-A", name,
				ret[i] ? "it returns nothing (void)" : "it takes no argument");
		*spec = from;
	}
	kft_dwarf_funcs_free(&funcs);
	(void)err;
	return 0;
}

int kft_auto_args_enums(const struct kft_config *cfg, const char *path, const char *dir,
			FILE *notes, struct kft_error *err)
{
	const char **types = NULL;
	bool *found = NULL;
	size_t n = 0, room = 0;
	char file[4096];
	struct kft_error why;
	FILE *out;
	int ret = 0;

	for (size_t i = 0; i < cfg->args.n; i++)
		room += cfg->argspecs[i].n;
	for (size_t i = 0; i < cfg->args.n; i++)
		for (unsigned int k = 0; k < cfg->argspecs[i].n; k++) {
			const char *type = cfg->argspecs[i].item[k].enum_type;
			size_t j;

			if (cfg->argspecs[i].item[k].fmt != KFT_ARG_ENUM)
				continue;
			if (!types && (!(types = calloc(room, sizeof(*types))) ||
				       !(found = calloc(room, sizeof(*found))))) {
				ret = kft_error_set(err, "out of memory");
				goto out;
			}
			for (j = 0; j < n && strcmp(types[j], type); j++)
				;
			if (j == n)
				types[n++] = type;
		}
	if (!n)
		goto out;
	snprintf(file, sizeof(file), "%s/%s", dir, KFT_ENUMS_FILE);
	if (!(out = fopen(file, "we"))) {
		ret = kft_error_set(err, "%s: %m", file);
		goto out;
	}
	if (kft_dwarf_enums_write(path, types, n, found, out, &why))
		fprintf(notes, "kft: %s: enums show as numbers\n", why.msg);
	else
		for (size_t i = 0; i < n; i++)
			if (!found[i])
				fprintf(notes, "kft: enum %s: not in %s's debug information: its "
					"values show as numbers\n", types[i], path);
	if (fclose(out))
		ret = kft_error_set(err, "%s: %m", file);
out:
	free(types);
	free(found);
	return ret;
}
