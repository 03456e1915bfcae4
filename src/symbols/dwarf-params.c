// SPDX-License-Identifier: GPL-2.0-only
/*
 * What each function of a program takes and returns, from its DWARF (or
 * its separate debug file's, found by elfutils' libdwfl as gdb finds
 * it), as an args spec: which registers hold its parameters under the
 * x86-64 System V calling convention, and how each shows (a struct
 * passed by value holds its place, {...}). Where that cannot be known for
 * certain (a variadic tail, long double, a C++ class that does not say
 * how it travels, a function the optimizer gave another convention), the
 * spec stops before it: kft shows fewer values, never a wrong one.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/grow.h"
#include "dwarf-params.h"
#include "elf-symtab.h"

/* type with its typedefs and qualifiers taken off, into *out: false for
 * void (no type). *named: the last typedef's name on the way, or NULL. */
static bool peel(Dwarf_Die *type, Dwarf_Die *out, const char **named)
{
	Dwarf_Attribute attr;

	*out = *type;
	*named = NULL;
	for (int hops = 0; hops < 64; hops++) {
		int tag = dwarf_tag(out);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type &&
		    tag != DW_TAG_atomic_type)
			return true;
		if (tag == DW_TAG_typedef)
			*named = dwarf_diename(out);
		if (!dwarf_attr_integrate(out, DW_AT_type, &attr) ||
		    !dwarf_formref_die(&attr, out))
			return false;
	}
	return false;
}

/* The die's DW_AT_type, peeled: false for none (void). */
static bool type_named(Dwarf_Die *die, Dwarf_Die *out, const char **named)
{
	Dwarf_Attribute attr;
	Dwarf_Die t;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &t))
		return false;
	return peel(&t, out, named);
}

static bool type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	const char *named;

	return type_named(die, out, &named);
}

/* die's attribute name (its own, or its origin's) as a constant, into *v. */
static bool udata(Dwarf_Die *die, unsigned int name, Dwarf_Word *v)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, name, &attr) && !dwarf_formudata(&attr, v);
}

/* A scalar's size as a spec says it: bits, 0 for 64. */
static uint8_t spec_bits(int size)
{
	return size == 8 ? 0 : (uint8_t)(size * 8);
}

enum kind { UNKNOWN, INTEGER, FLOATING, AGGREGATE, VOID };

/* How a value of die's type travels and shows, into it (format, size in
 * bits, 0 for 64, an enum's type name): its class. *t: the type. */
static enum kind classify(Dwarf_Die *die, Dwarf_Die *t, struct kft_argitem *it)
{
	Dwarf_Word enc = 0;
	Dwarf_Die to;
	const char *named;
	int size;

	memset(it, 0, sizeof(*it));
	if (!type_named(die, t, &named))
		return VOID;
	size = dwarf_bytesize(t);
	switch (dwarf_tag(t)) {
	case DW_TAG_base_type:
		if (!udata(t, DW_AT_encoding, &enc) || size <= 0 || size > 8)
			return UNKNOWN;	/* __int128, long double, _Complex */
		it->bits = spec_bits(size);
		switch (enc) {
		case DW_ATE_boolean:
			it->fmt = KFT_ARG_BOOL;
			return INTEGER;
		case DW_ATE_signed:
		case DW_ATE_signed_char:
			it->fmt = KFT_ARG_INT;
			return INTEGER;
		case DW_ATE_unsigned:
		case DW_ATE_unsigned_char:
		case DW_ATE_UTF:
			it->fmt = KFT_ARG_UINT;
			return INTEGER;
		case DW_ATE_float:
			it->fmt = KFT_ARG_FLOAT;
			return size == 4 || size == 8 ? FLOATING : UNKNOWN;
		default:
			return UNKNOWN;
		}
	case DW_TAG_enumeration_type:
		if (size <= 0 || size > 8)
			return UNKNOWN;
		it->bits = spec_bits(size);
		/* by its enumerators' names, where its type has a name a spec
		 * can hold (its own, or a typedef's) and it is int-sized */
		if (!named || dwarf_diename(t))
			named = dwarf_diename(t);
		if (size == 4 && named && kft_enum_type_ok(named, strlen(named)) &&
		    (it->enum_type = kft_enum_type_intern(named, strlen(named)))) {
			it->fmt = KFT_ARG_ENUM;
			return INTEGER;
		}
		it->fmt = KFT_ARG_INT;
		if (type_of(t, &to) && udata(&to, DW_AT_encoding, &enc) && enc == DW_ATE_unsigned)
			it->fmt = KFT_ARG_UINT;
		return INTEGER;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		it->fmt = KFT_ARG_HEX;
		/* a char *: the string it points to */
		if (dwarf_tag(t) == DW_TAG_pointer_type && type_of(t, &to) &&
		    dwarf_tag(&to) == DW_TAG_base_type && dwarf_bytesize(&to) == 1 &&
		    udata(&to, DW_AT_encoding, &enc) &&
		    (enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char))
			it->fmt = KFT_ARG_STR;
		return INTEGER;
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
	case DW_TAG_array_type:
		return AGGREGATE;
	default:
		return UNKNOWN;
	}
}

/* ---- an aggregate passed by value: where the calling convention puts it */

enum eightbyte { EB_NONE, EB_INT, EB_SSE };

/* Merge the scalar parts of type t, at byte off of the aggregate, into
 * its two eightbytes' classes: false where it must go to memory (long
 * double, unaligned, an unknown kind). */
static bool classify_into(Dwarf_Die *t, uint64_t off, enum eightbyte eb[2], int level)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc, moff, count;
	Dwarf_Die pt, child, sub;
	const char *named;
	enum eightbyte want;
	int size;

	if (level > 8 || !peel(t, &pt, &named))
		return false;
	size = dwarf_bytesize(&pt);
	switch (dwarf_tag(&pt)) {
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		if (dwarf_child(&pt, &child))
			return true;	/* empty */
		do {
			if (dwarf_tag(&child) != DW_TAG_member ||
			    dwarf_hasattr(&child, DW_AT_external) ||
			    dwarf_hasattr(&child, DW_AT_declaration))
				continue;	/* a static member, a method */
			moff = 0;
			if (dwarf_hasattr(&child, DW_AT_data_member_location) &&
			    !udata(&child, DW_AT_data_member_location, &moff))
				return false;	/* a location expression: not simple */
			if (dwarf_hasattr(&child, DW_AT_bit_size)) {
				/* a bit-field: an integer where it lies */
				if (off + moff >= 16)
					return false;
				eb[(off + moff) / 8] = EB_INT;
				continue;
			}
			if (!dwarf_attr_integrate(&child, DW_AT_type, &attr) ||
			    !dwarf_formref_die(&attr, &sub) ||
			    !classify_into(&sub, off + moff, eb, level + 1))
				return false;
		} while (!dwarf_siblingof(&child, &child));
		return true;
	case DW_TAG_array_type:
		if (!dwarf_attr_integrate(&pt, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &sub) ||
		    dwarf_child(&pt, &child) || dwarf_tag(&child) != DW_TAG_subrange_type)
			return false;
		if (udata(&child, DW_AT_count, &count))
			;
		else if (udata(&child, DW_AT_upper_bound, &count))
			count++;
		else
			return false;
		{
			Dwarf_Die et;
			int esize;

			if (!peel(&sub, &et, &named) || (esize = dwarf_bytesize(&et)) <= 0 ||
			    count > 16)
				return false;
			for (Dwarf_Word i = 0; i < count; i++)
				if (!classify_into(&sub, off + i * (Dwarf_Word)esize, eb, level + 1))
					return false;
		}
		return true;
	case DW_TAG_base_type:
		if (!udata(&pt, DW_AT_encoding, &enc) || size <= 0 || size > 8)
			return false;	/* long double, __int128: memory */
		want = enc == DW_ATE_float ? EB_SSE : EB_INT;
		break;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
	case DW_TAG_enumeration_type:
		want = EB_INT;
		break;
	default:
		return false;
	}
	if (size <= 0 || off % (uint64_t)size || off + (uint64_t)size > 16)
		return false;	/* unaligned: memory */
	if (want == EB_INT || eb[off / 8] == EB_NONE)
		eb[off / 8] = want;
	return true;
}

/* Where a value of aggregate type t goes: in *ints integer registers and
 * *sses vector ones (the first eightbyte's class in *first), or false:
 * in memory, on the stack. */
static bool aggregate_in_registers(Dwarf_Die *t, unsigned int *ints, unsigned int *sses,
				   enum eightbyte *first)
{
	enum eightbyte eb[2] = { EB_NONE, EB_NONE };
	int size = dwarf_bytesize(t), n;

	*ints = *sses = 0;
	if (size <= 0 || size > 16 || !classify_into(t, 0, eb, 0))
		return false;
	n = (size + 7) / 8;
	for (int i = 0; i < n; i++) {
		if (eb[i] == EB_NONE)
			eb[i] = EB_SSE;	/* padding only: no integer */
		*ints += eb[i] == EB_INT;
		*sses += eb[i] == EB_SSE;
	}
	*first = eb[0];
	return true;
}

/* A C++ class's own word on how it travels: DW_CC_pass_by_reference (a
 * hidden pointer), _by_value, or 0 (not said). */
static Dwarf_Word pass_convention(Dwarf_Die *t)
{
	Dwarf_Word cc;

	return udata(t, DW_AT_calling_convention, &cc) ? cc : 0;
}

static bool is_cplusplus(Dwarf_Die *cu)
{
	int lang = dwarf_srclang(cu);

	return lang == DW_LANG_C_plus_plus || lang == DW_LANG_C_plus_plus_03 ||
	       lang == DW_LANG_C_plus_plus_11 || lang == DW_LANG_C_plus_plus_14;
}

/* fn's spec, its parameters in order: false if none can be saved. */
/* spec without its floating-point registers. */
static void drop_fp_registers(struct kft_argspec *spec)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < spec->n; i++)
		if (spec->item[i].slot < KFT_ARGSLOT_FP0 || spec->item[i].slot >= KFT_ARGSLOT_STACK0)
			spec->item[n++] = spec->item[i];
	spec->n = (uint8_t)n;
}

/* fn's spec, its parameters in order: false if none can be saved.
 * after_prologue: the hook is mcount, which code compiled without
 * optimization calls after spilling the parameters, and clang's then
 * loads a double passed on the stack through xmm0 first. */
static bool spec_of(Dwarf_Die *fn, bool cplusplus, bool after_prologue, struct kft_argspec *spec,
		    bool *partial, bool *fp_unsure)
{
	Dwarf_Word cc;
	Dwarf_Die t, child;
	/* registers taken, and words on the stack: known to the word until a
	 * struct goes there (its alignment may leave a gap) */
	unsigned int ints = 0, fps = 0, words = 0;
	bool exact = true;
	struct kft_argitem it;

	memset(spec, 0, sizeof(*spec));
	*partial = *fp_unsure = false;
	/* the optimizer gave it a convention of its own */
	if (udata(fn, DW_AT_calling_convention, &cc) && cc != DW_CC_normal)
		return false;
	switch (classify(fn, &t, &it)) {
	case INTEGER:
	case FLOATING:
		it.slot = KFT_ARGSLOT_RETVAL;
		spec->item[spec->n++] = it;
		break;
	case AGGREGATE: {
		unsigned int ni, ns;
		enum eightbyte first;

		/* a C++ class may come back through a hidden first argument
		 * whatever its size, unless it says how it travels */
		if (cplusplus && pass_convention(&t) != DW_CC_pass_by_value)
			return false;
		if (!aggregate_in_registers(&t, &ni, &ns, &first))
			ints = 1;	/* rdi: where the result goes */
		*partial = true;	/* (a struct's result is not saved) */
		break;
	}
	case VOID:
		break;
	default:
		*partial = true;
		break;
	}
	if (dwarf_child(fn, &child))
		return spec->n > 0;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_unspecified_parameters) {
			*partial = true;	/* a variadic tail */
			break;
		}
		if (tag != DW_TAG_formal_parameter)
			continue;
		switch (classify(&child, &t, &it)) {
		case INTEGER:
		case FLOATING: {
			bool fp = it.fmt == KFT_ARG_FLOAT;

			if (fp ? fps < KFT_MAX_FPARGS : ints < KFT_MAX_ARGS) {
				it.slot = (uint8_t)(fp ? KFT_ARGSLOT_FP0 + fps++ : ints++);
			} else if (fp && after_prologue) {
				drop_fp_registers(spec);	/* xmm0 may hold another */
				*fp_unsure = true;
				goto stop;
			} else if (exact && words < KFT_MAX_STACKARGS)
				it.slot = (uint8_t)(KFT_ARGSLOT_STACK0 + words++);	/* a word */
			else
				goto stop;
			break;
		}
		case AGGREGATE: {
			/* shown as {...}, but where it goes decides where the
			 * parameters after it are */
			unsigned int ni, ns;
			enum eightbyte first;
			Dwarf_Word how = pass_convention(&t);

			it.fmt = KFT_ARG_AGGREGATE;
			it.bits = 0;
			if (cplusplus && how == DW_CC_pass_by_reference) {
				if (ints == KFT_MAX_ARGS)
					goto stop;
				it.slot = (uint8_t)ints++;	/* a hidden pointer */
			} else if (cplusplus && how != DW_CC_pass_by_value) {
				goto stop;	/* not said: not certain */
			} else if (aggregate_in_registers(&t, &ni, &ns, &first) &&
				   ints + ni <= KFT_MAX_ARGS && fps + ns <= KFT_MAX_FPARGS) {
				it.slot = (uint8_t)(first == EB_INT ? ints : KFT_ARGSLOT_FP0 + fps);
				ints += ni;
				fps += ns;
			} else {
				/* in memory: no register taken, its words on the
				 * stack (where those after it lie is not certain) */
				if (!exact || words == KFT_MAX_STACKARGS)
					goto stop;
				it.slot = (uint8_t)(KFT_ARGSLOT_STACK0 + words);
				words += dwarf_bytesize(&t) > 0 ? (unsigned int)(dwarf_bytesize(&t) + 7) / 8 : 1;
				exact = false;
			}
			break;
		}
		default:
			goto stop;	/* the registers after it are not certain */
		}
		spec->item[spec->n++] = it;
	} while (!dwarf_siblingof(&child, &child));
	return spec->n > 0;
stop:
	*partial = true;
	return spec->n > 0 || *fp_unsure;	/* (the latter, for kft record's check) */
}

static int add(struct kft_dwarf_funcs *out, size_t *cap, const char *name, uint64_t addr,
	       const struct kft_argspec *spec, bool partial, bool fp_unsure)
{
	struct kft_dwarf_func *f;

	if (kft_grow((void **)&out->v, out->n, cap, sizeof(*out->v), 64))
		return -1;
	f = &out->v[out->n];
	if (!(f->name = strdup(name)))
		return -1;
	f->addr = addr;
	f->spec = *spec;
	f->partial = partial;
	f->fp_unsure = fp_unsure;
	out->n++;
	return 0;
}

/* The functions with code among die's children, and theirs (C++'s
 * namespaces and classes hold them). DWARF's addresses are the file's
 * own, as the symbol table's. */
static int walk(Dwarf_Die *die, const struct kft_elf *elf, bool cplusplus,
		struct kft_dwarf_funcs *out, size_t *cap, int level)
{
	Dwarf_Die child;

	if (level > 16 || dwarf_child(die, &child))
		return 0;
	do {
		int tag = dwarf_tag(&child);
		const struct kft_elf_sym *sym;
		struct kft_argspec spec;
		Dwarf_Addr low;
		const char *name;
		bool partial, fp_unsure;

		if (tag == DW_TAG_namespace || tag == DW_TAG_structure_type ||
		    tag == DW_TAG_class_type) {
			if (walk(&child, elf, cplusplus, out, cap, level + 1))
				return -1;
			continue;
		}
		if (tag != DW_TAG_subprogram || dwarf_lowpc(&child, &low))
			continue;
		/* its symbol, by address: a clone the optimizer made
		 * (fib.isra.0, f.constprop.0) takes other arguments than
		 * its source says */
		sym = kft_elf_lookup(elf, low);
		if (!sym || sym->addr != low || strchr(sym->name, '.'))
			continue;
		/* (a C++ definition names its declaration, which has the name;
		 * the symbol is the mangled one) */
		name = dwarf_diename(&child);
		if (!cplusplus && (!name || strcmp(sym->name, name)))
			continue;
		if (spec_of(&child, cplusplus, elf->calls_mcount, &spec, &partial, &fp_unsure) &&
		    add(out, cap, sym->name, sym->addr, &spec, partial, fp_unsure))
			return -1;
	} while (!dwarf_siblingof(&child, &child));
	return 0;
}

static int by_name(const void *a, const void *b)
{
	const struct kft_dwarf_func *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->addr > y->addr) - (x->addr < y->addr);
}

/* Two static functions of one name with other parameters: which one a
 * name means at run time is not known here, so neither is kept. */
static void drop_ambiguous(struct kft_dwarf_funcs *out)
{
	size_t kept = 0;

	qsort(out->v, out->n, sizeof(*out->v), by_name);
	for (size_t i = 0; i < out->n;) {
		size_t j = i + 1;
		bool same = true;

		while (j < out->n && !strcmp(out->v[j].name, out->v[i].name)) {
			same = same && !memcmp(&out->v[j].spec, &out->v[i].spec,
					       sizeof(out->v[i].spec));
			j++;
		}
		if (same) {
			out->v[kept++] = out->v[i];
			i++;
		}
		for (; i < j; i++)
			free(out->v[i].name);
		i = j;
	}
	out->n = kept;
}

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
};

/* path's DWARF, its own or its separate debug file's: the session (end
 * it with dwfl_end) and the module whose CUs to walk, or NULL with err. */
static Dwfl *open_dwarf(const char *path, Dwfl_Module **mod, struct kft_error *err)
{
	Dwfl *dwfl = dwfl_begin(&callbacks);
	Dwarf_Addr bias;

	if (!dwfl) {
		kft_error_set(err, "%s: %s", path, dwfl_errmsg(-1));
		return NULL;
	}
	*mod = dwfl_report_offline(dwfl, "", path, -1);
	dwfl_report_end(dwfl, NULL, NULL);
	if (!*mod || !dwfl_module_getdwarf(*mod, &bias)) {
		dwfl_end(dwfl);
		kft_error_set(err, "%s has no debug information (DWARF): build it with -g", path);
		return NULL;
	}
	return dwfl;
}

int kft_dwarf_funcs_read(const struct kft_elf *elf, const char *path,
			 struct kft_dwarf_funcs *out, struct kft_error *err)
{
	Dwfl_Module *mod;
	Dwfl *dwfl = open_dwarf(path, &mod, err);
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;
	size_t cap = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!dwfl)
		return -1;
	while (!ret && (cu = dwfl_module_nextcu(mod, cu, &bias)))
		if (walk(cu, elf, is_cplusplus(cu), out, &cap, 0))
			ret = kft_error_set(err, "out of memory");
	dwfl_end(dwfl);
	if (ret)
		kft_dwarf_funcs_free(out);
	else
		drop_ambiguous(out);
	return ret;
}

void kft_dwarf_funcs_free(struct kft_dwarf_funcs *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i].name);
	free(f->v);
	memset(f, 0, sizeof(*f));
}

/* Whether die is an enum type, or a typedef of one, called one of types
 * not yet written (done[i]): its enumerators to out. */
static void enum_out(Dwarf_Die *die, const char *const *types, bool *done, size_t n, FILE *out)
{
	const char *name = dwarf_diename(die), *named;
	Dwarf_Die t, e;
	size_t i;

	if (!name)
		return;
	for (i = 0; i < n && (done[i] || strcmp(types[i], name)); i++)
		;
	if (i == n)
		return;
	t = *die;
	if (dwarf_tag(die) == DW_TAG_typedef && !peel(die, &t, &named))
		return;
	if (dwarf_tag(&t) != DW_TAG_enumeration_type || dwarf_child(&t, &e))
		return;
	done[i] = true;
	fprintf(out, "enum %s\n", name);
	do {
		Dwarf_Attribute attr;
		Dwarf_Sword v;

		if (dwarf_tag(&e) == DW_TAG_enumerator && dwarf_diename(&e) &&
		    dwarf_attr(&e, DW_AT_const_value, &attr) && !dwarf_formsdata(&attr, &v))
			fprintf(out, "%lld %s\n", (long long)v, dwarf_diename(&e));
	} while (!dwarf_siblingof(&e, &e));
	fputc('\n', out);
}

static void enums_in(Dwarf_Die *die, const char *const *types, bool *done, size_t n, FILE *out,
		     int level)
{
	Dwarf_Die child;

	if (level > 16 || dwarf_child(die, &child))
		return;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_enumeration_type || tag == DW_TAG_typedef)
			enum_out(&child, types, done, n, out);
		else if (tag == DW_TAG_namespace || tag == DW_TAG_structure_type ||
			 tag == DW_TAG_class_type)
			enums_in(&child, types, done, n, out, level + 1);
	} while (!dwarf_siblingof(&child, &child));
}

int kft_dwarf_enums_write(const char *path, const char *const *types, size_t n, bool *found,
			  FILE *out, struct kft_error *err)
{
	Dwfl_Module *mod;
	Dwfl *dwfl;
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;

	memset(found, 0, n * sizeof(*found));
	if (!(dwfl = open_dwarf(path, &mod, err)))
		return -1;
	while ((cu = dwfl_module_nextcu(mod, cu, &bias)))
		enums_in(cu, types, found, n, out, 0);
	dwfl_end(dwfl);
	return 0;
}
