// SPDX-License-Identifier: GPL-2.0-only
/*
 * Planning the entry patches of a program built without instrumentation
 * (format/patch-plan.h). Zydis decodes: it is a decoder only, small and
 * allocation-free, and tells where in an instruction its displacement and
 * immediates lie, which is all that moving an instruction takes (capstone
 * would allocate for each instruction and say less about the bytes).
 *
 * A function is patched only where it is safe to: its first instructions
 * (at least the jmp's five bytes, whole) lie inside it, decode, and can
 * run from the trampoline (a RIP-relative operand or a branch's target is
 * re-aimed there; a short branch becomes a long one; loop and jrcxz have
 * no long form and are refused), no branch anywhere in the program lands
 * inside them (one to the function's start lands on the jmp: a call, a
 * tail call of itself too). Functions
 * the C runtime runs around main and the cold parts of others (entered
 * by a jump, with no return address of their own) are left alone.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <Zydis/Zydis.h>

#include "../common/grow.h"
#include "../symbols/elf-symtab.h"
#include "../symbols/frame-funcs.h"
#include "hooked-funcs.h"
#include "libraries.h"
#include "patch-plan.h"
#include "trace-dir.h"

#define JMP_LEN 5

/* A relative branch: where it lands, where it is, and whether it is a
 * call. */
struct branch {
	uint64_t target, from;
	uint64_t rel32;		/* its rel32 field's address when it ends the
				 * instruction, else 0 */
	bool call;
};

struct planner {
	const struct kft_elf *elf;
	struct kft_hooked hooked;	/* the functions to patch, of those that can be */
	ZydisDecoder dec;
	struct branch *branches;
	size_t nbranches, branches_cap;
	uint64_t *refs;		/* addresses the code or a relocation names */
	size_t nrefs, refs_cap;
	struct kft_frame_cfi *cfi;	/* a stripped file's unwind table, or NULL */
};

static int add_ref(struct planner *p, uint64_t addr)
{
	if (kft_grow((void **)&p->refs, p->nrefs, &p->refs_cap, sizeof(*p->refs), 1024))
		return -1;
	p->refs[p->nrefs++] = addr;
	return 0;
}

static int add_ref_cb(void *p, uint64_t addr)
{
	return add_ref(p, addr);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool decode(const struct planner *p, const uint8_t *b, uint64_t avail,
		   ZydisDecodedInstruction *in)
{
	return ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&p->dec, NULL, b, avail, in));
}

/* The relative immediate of a branch, or -1. */
static int rel_imm(const ZydisDecodedInstruction *in)
{
	for (int i = 0; i < 2; i++)
		if (in->raw.imm[i].is_relative)
			return i;
	return -1;
}

static bool rip_relative(const ZydisDecodedInstruction *in)
{
	return (in->attributes & ZYDIS_ATTRIB_HAS_MODRM) && in->raw.modrm.mod == 0 &&
	       in->raw.modrm.rm == 5;
}

/* Note every relative branch of the function at [start, end). Whether it
 * all decoded. */
static bool note_branches(struct planner *p, uint64_t start, uint64_t end)
{
	ZydisDecodedInstruction in;
	uint64_t avail;
	const uint8_t *b = kft_elf_bytes_at(p->elf, start, &avail);

	if (!b || avail < end - start)
		return false;
	for (uint64_t at = start; at < end; at += in.length) {
		int k;

		if (!decode(p, b + (at - start), end - at, &in))
			return false;
		if (rip_relative(&in) && in.raw.disp.size == 32 &&
		    add_ref(p, at + in.length + (uint64_t)in.raw.disp.value))
			return false;
		k = rel_imm(&in);
		if (k < 0)
			continue;
		if (kft_grow((void **)&p->branches, p->nbranches, &p->branches_cap,
			     sizeof(*p->branches), 1024))
			return false;
		p->branches[p->nbranches].target = at + in.length + (uint64_t)in.raw.imm[k].value.s;
		p->branches[p->nbranches].call = in.meta.category == ZYDIS_CATEGORY_CALL;
		p->branches[p->nbranches].rel32 =
			in.raw.imm[k].size == 32 && in.raw.imm[k].offset + 4 == in.length
				? at + in.raw.imm[k].offset
				: 0;
		p->branches[p->nbranches++].from = at;
	}
	return true;
}

static int cmp_branch(const void *a, const void *b)
{
	const struct branch *x = a, *y = b;

	return x->target < y->target ? -1 : x->target > y->target;
}

/* The first of the branches (sorted by target) landing at addr or above. */
static size_t first_landing(const struct planner *p, uint64_t addr)
{
	size_t a = 0, b = p->nbranches;

	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (p->branches[m].target < addr)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

/* Why a function cannot take the jmp (plan_all then moves it whole and
 * has it entered by its callers, if it can be). */
static const char too_short[] = "shorter than the five bytes a jump takes";

/* Whether a branch lands inside [lo, hi), the first instructions of the
 * function at start. One to its start (lo, or the endbr64 before it)
 * lands on the jmp: from its own code too, a tail call of itself is a
 * call, counted as an instrumented build's hook counts it. */
static bool branch_into(const struct planner *p, uint64_t start, uint64_t lo, uint64_t hi)
{
	for (size_t a = first_landing(p, start); a < p->nbranches && p->branches[a].target < hi;
	     a++)
		if (p->branches[a].target > lo)
			return true;
	return false;
}

static void add_fix(struct kft_plan_func *f, unsigned int kind, unsigned int field,
		    unsigned int insn_end, uint64_t target)
{
	struct kft_plan_fix *x = &f->fix[f->nfix++];

	x->kind = (uint8_t)kind;
	x->field = (uint8_t)field;
	x->insn_end = (uint8_t)insn_end;
	x->target = target;
}

/*
 * A call, at addr, the last of the instructions moved into f's body, made
 * there as what it is: a push of its return address (in the function,
 * behind the jmp: the callee returns there, into code unwinders know) and
 * a jump where it went, `call rel32` as `jmp rel32` and `call *x(%rip)` as
 * `jmp *x(%rip)`. Any other call would read the stack pointer the push
 * moved, or a register kft could not keep: refused. The instructions
 * moved end at upto or after. NULL, or why not.
 */
static const char *move_call(struct kft_plan_func *f, const ZydisDecodedInstruction *in,
			     const uint8_t *b, uint64_t addr, uint64_t upto)
{
	unsigned int at = f->body_len, len = in->length, jmp = at + 6, data;
	int k = rel_imm(in);
	int32_t disp;

	if (addr + len < upto)
		return "a call in its first instructions with more behind it to move";
	if (f->nfix + 2 > KFT_PLAN_FIXES)
		return "too many addresses to move in its first instructions";
	if (k >= 0 && len == 5 && b[0] == 0xe8)
		data = jmp + 5;
	else if (len == 6 && b[0] == 0xff && b[1] == 0x15)
		data = jmp + 6;
	else
		return "a call in its first instructions kft cannot move";
	if (data + 8 > KFT_PLAN_BODY_MAX)
		return "its first instructions are too long to move";
	if (b[0] == 0xe8) {
		f->body[jmp] = 0xe9;
		add_fix(f, KFT_PLAN_FIX_REL32, jmp + 1, jmp + 5,
			addr + len + (uint64_t)in->raw.imm[k].value.s);
	} else {
		f->body[jmp] = 0xff;
		f->body[jmp + 1] = 0x25;
		add_fix(f, KFT_PLAN_FIX_REL32, jmp + 2, jmp + 6,
			addr + len + (uint64_t)in->raw.disp.value);
	}
	f->body[at] = 0xff;	/* push data(%rip) */
	f->body[at + 1] = 0x35;
	disp = (int32_t)(data - (at + 6));
	memcpy(f->body + at + 2, &disp, sizeof(disp));
	add_fix(f, KFT_PLAN_FIX_ADDR, data, 0, addr + len);
	f->body_len = (uint8_t)(data + 8);
	return NULL;
}

/* Move one instruction, at addr, into f's body (of those up to upto).
 * NULL, or why not. */
static const char *move_insn(struct kft_plan_func *f, const ZydisDecodedInstruction *in,
			     const uint8_t *b, uint64_t addr, uint64_t upto)
{
	unsigned int at = f->body_len, len = in->length;
	int k = rel_imm(in);
	uint64_t target = k >= 0 ? addr + len + (uint64_t)in->raw.imm[k].value.s : 0;

	if (f->nfix == KFT_PLAN_FIXES)
		return "too many addresses to move in its first instructions";
	if (in->meta.category == ZYDIS_CATEGORY_CALL)
		return move_call(f, in, b, addr, upto);
	if (k >= 0 && in->raw.imm[k].size == 8 && len == 2) {
		/* jmp or jcc rel8, made rel32 */
		if (at + 6 > KFT_PLAN_BODY_MAX)
			return "its first instructions are too long to move";
		if (b[0] == 0xeb) {
			f->body[at] = 0xe9;
			f->body_len = (uint8_t)(at + 5);
			add_fix(f, KFT_PLAN_FIX_REL32, at + 1, at + 5, target);
		} else if (b[0] >= 0x70 && b[0] <= 0x7f) {
			f->body[at] = 0x0f;
			f->body[at + 1] = (uint8_t)(0x80 + (b[0] & 0xf));
			f->body_len = (uint8_t)(at + 6);
			add_fix(f, KFT_PLAN_FIX_REL32, at + 2, at + 6, target);
		} else {
			return "a loop or jrcxz in its first instructions (no long form to move it to)";
		}
		return NULL;
	}
	if (k >= 0 && in->raw.imm[k].size != 32)
		return "a branch in its first instructions kft cannot move";
	if (k < 0 && rip_relative(in) && (in->raw.disp.size != 32 || in->address_width != 64))
		return "an address in its first instructions kft cannot move";
	if (at + len > KFT_PLAN_BODY_MAX)
		return "its first instructions are too long to move";
	memcpy(f->body + at, b, len);
	f->body_len = (uint8_t)(at + len);
	if (k >= 0)
		add_fix(f, KFT_PLAN_FIX_REL32, at + in->raw.imm[k].offset, at + len, target);
	else if (rip_relative(in))
		add_fix(f, KFT_PLAN_FIX_REL32, at + in->raw.disp.offset, at + len,
			addr + len + (uint64_t)in->raw.disp.value);
	return NULL;
}

/* Whether in is what compilers put between functions: a nop of any
 * length, or int3. */
static bool padding(const ZydisDecodedInstruction *in, const uint8_t *b)
{
	return in->mnemonic == ZYDIS_MNEMONIC_NOP || in->mnemonic == ZYDIS_MNEMONIC_INT3 ||
	       (in->length == 2 && b[0] == 0x66 && b[1] == 0x90);
}

/*
 * Plan the function s, which the next symbol (or the end of its segment)
 * follows at next. A function shorter than the jmp takes the padding
 * behind it too (`xor %eax,%eax; ret` and a nop): nothing runs there.
 * With whole, all of its instructions are moved, for a function entered
 * by its callers (which takes no jmp). NULL, or why it is left alone.
 */
static const char *plan_func(const struct planner *p, const struct kft_elf_sym *s, uint64_t next,
			     bool whole, struct kft_plan_func *f)
{
	static const uint8_t endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	uint64_t end = s->addr + s->size, avail, at, upto;
	const uint8_t *b = kft_elf_bytes_at(p->elf, s->addr, &avail);
	ZydisDecodedInstruction in;
	const char *why;

	memset(f, 0, sizeof(*f));
	if (!b || avail < s->size)
		return "its bytes are not in the file";
	if (next > s->addr + avail || next < end)
		next = s->addr + avail < end ? end : s->addr + avail;
	f->func = s->addr;
	f->patch = s->addr + (s->size >= 4 && !memcmp(b, endbr64, 4) ? 4 : 0);
	upto = whole ? end : f->patch + JMP_LEN;
	if (whole && (end <= f->patch || end - f->patch > KFT_PLAN_ORIG_MAX))
		return too_short;
	for (at = f->patch; at < upto; at += in.length) {
		const uint8_t *ib = b + (at - s->addr);
		uint64_t lim = at < end || whole ? end : next;

		if (at < lim && !decode(p, ib, lim - at, &in))
			return at < end ? "its first bytes do not decode" : too_short;
		if (at >= lim || at + in.length > lim || (at >= end && !padding(&in, ib)))
			return too_short;
		why = move_insn(f, &in, ib, at, upto);
		if (why)
			return why;
	}
	f->orig_len = (uint8_t)(at - f->patch);
	memcpy(f->orig, b + (f->patch - s->addr), f->orig_len);
	/* (moved whole, its own bytes stay: a branch into them runs them) */
	return whole || !branch_into(p, s->addr, f->patch, at) ? NULL
		: "a branch lands inside its first instructions";
}

/* Whether something calls addr or names it (takes its address): a
 * function's cold part is only jumped to. */
static bool entered_as_function(const struct planner *p, uint64_t addr)
{
	for (size_t a = first_landing(p, addr); a < p->nbranches && p->branches[a].target == addr;
	     a++)
		if (p->branches[a].call)
			return true;
	return bsearch(&addr, p->refs, p->nrefs, sizeof(*p->refs), cmp_u64) != NULL;
}

/* Why a function found in a stripped file's .eh_frame is the cold part
 * of another, or NULL. Its unwind table says: a cold part begins inside
 * the frame its function set up (the CFA above rsp+8, registers saved).
 * A function reached only through pointers (a non-PIE file's tables
 * carry no relocation to find them by) is one all the same. Where the
 * table says nothing, by how it is entered: something calls it or takes
 * its address. */
static const char *cold_part(const struct planner *p, uint64_t addr)
{
	int inside = kft_frame_cfi_inside(p->cfi, addr);

	if (inside > 0)
		return "found in .eh_frame, and begins inside a frame set up before it (a cold "
		       "part of another function, entered by a jump)";
	if (inside < 0 && !entered_as_function(p, addr))
		return "found in .eh_frame, but nothing calls it or takes its address (a cold "
		       "part of another function, entered by a jump)";
	return NULL;
}

/* Code the C runtime runs around main, and parts of other functions. */
static const char *not_a_function(const char *name)
{
	static const char *const crt[] = {
		"_start", "_init", "_fini", "__libc_csu_init", "__libc_csu_fini",
		"_dl_relocate_static_pie", "deregister_tm_clones", "register_tm_clones",
		"__do_global_dtors_aux", "frame_dummy",
	};

	for (size_t i = 0; i < sizeof(crt) / sizeof(crt[0]); i++)
		if (!strcmp(name, crt[i]))
			return "the C runtime's start-up and end, not the program's";
	if (strstr(name, ".cold"))
		return "a cold part of another function (entered by a jump, not called)";
	return NULL;
}

static int skip(struct kft_patch_plan *plan, const struct kft_elf_sym *s, const char *why,
		bool part)
{
	struct kft_plan_skip *k;

	if (kft_grow((void **)&plan->skips, plan->nskips, &plan->skips_cap, sizeof(*plan->skips),
		     16))
		return -1;
	k = &plan->skips[plan->nskips];
	k->name = strdup(s->name ? s->name : "?");
	if (!k->name)
		return -1;
	k->addr = s->addr;
	k->why = why;
	k->part = part;
	plan->nskips++;
	plan->nparts += part;
	return 0;
}

/* Whether sym i is one to plan: with a body, and the first name of its
 * address (aliases sort after it); *last is the address of the one before. */
static bool to_plan(const struct kft_elf *elf, size_t i, uint64_t *last)
{
	if (!elf->syms[i].size || elf->syms[i].addr == *last)
		return false;
	*last = elf->syms[i].addr;
	return true;
}

/* Whether addr lies in the first bytes of a function patched by a jmp,
 * which its slot runs moved: a branch there is re-aimed in the slot
 * (runtime/dynamic.c), not in the bytes the jmp covers. */
static bool in_moved(const struct kft_patch_plan *plan, uint64_t addr)
{
	size_t a = 0, b = plan->nfuncs;

	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (plan->funcs[m].patch <= addr)
			a = m + 1;
		else
			b = m;
	}
	return a && !plan->funcs[a - 1].by_callers &&
	       addr < plan->funcs[a - 1].patch + plan->funcs[a - 1].orig_len;
}

/*
 * f (s, to end), too short for the jmp and moved whole, entered by its
 * callers: each call or jump to it from elsewhere is re-aimed at its
 * slot (its own, moved with it, are re-aimed there). Only where every
 * entry is such a branch: it is not exported, nor its address taken, and
 * each branch to it is a rel32. 1 if it is, 0 if not, -1: out of memory.
 */
static int by_callers(const struct planner *p, const struct kft_elf_sym *s, uint64_t end,
			      struct kft_plan_func *f, struct kft_patch_plan *plan)
{
	size_t first = plan->ncallers;

	if (kft_elf_exports(p->elf, s->addr) ||
	    bsearch(&s->addr, p->refs, p->nrefs, sizeof(*p->refs), cmp_u64) ||
	    bsearch(&f->patch, p->refs, p->nrefs, sizeof(*p->refs), cmp_u64))
		return 0;
	for (size_t a = first_landing(p, s->addr);
	     a < p->nbranches && p->branches[a].target <= f->patch; a++) {
		const struct branch *br = &p->branches[a];

		if (br->target != s->addr && br->target != f->patch)
			continue;
		if (br->from >= s->addr && br->from < end)
			continue;	/* its own: moved with it */
		if (!br->rel32 && in_moved(plan, br->from))
			continue;	/* moved into a slot as a rel32, re-aimed there */
		if (!br->rel32 || kft_grow((void **)&plan->callers, plan->ncallers,
					   &plan->callers_cap, sizeof(*plan->callers), 64)) {
			plan->ncallers = first;
			return br->rel32 ? -1 : 0;
		}
		plan->callers[plan->ncallers].func = (uint32_t)plan->nfuncs;
		plan->callers[plan->ncallers].pad = 0;
		plan->callers[plan->ncallers++].rel32 = br->rel32;
	}
	f->by_callers = 1;
	return 1;
}

/* The callers' fields that a jmp covers go: their moved copies are
 * re-aimed instead. */
static void drop_moved_callers(struct kft_patch_plan *plan)
{
	size_t kept = 0;

	for (size_t i = 0; i < plan->ncallers; i++)
		if (!in_moved(plan, plan->callers[i].rel32))
			plan->callers[kept++] = plan->callers[i];
	plan->ncallers = kept;
}

/* Where the code after sym i's address begins: the next symbol's. */
static uint64_t next_start(const struct kft_elf *elf, size_t i)
{
	size_t j = i + 1;

	while (j < elf->nsyms && elf->syms[j].addr <= elf->syms[i].addr)
		j++;
	return j < elf->nsyms ? elf->syms[j].addr : UINT64_MAX;
}

static int plan_all(struct planner *p, struct kft_patch_plan *plan, struct kft_error *err)
{
	const struct kft_elf *elf = p->elf;
	uint64_t last = UINT64_MAX;
	bool *whole = calloc(elf->nsyms + 1, sizeof(*whole));
	int ret = 0;

	if (!whole)
		return kft_error_set(err, "out of memory");
	for (size_t i = 0; i < elf->nsyms; i++)
		whole[i] = to_plan(elf, i, &last) &&
			   note_branches(p, elf->syms[i].addr, elf->syms[i].addr + elf->syms[i].size);
	if (p->nbranches)
		qsort(p->branches, p->nbranches, sizeof(*p->branches), cmp_branch);
	if (kft_elf_each_relative((struct kft_elf *)elf, add_ref_cb, p)) {
		free(whole);
		return kft_error_set(err, "out of memory");
	}
	if (p->nrefs)
		qsort(p->refs, p->nrefs, sizeof(*p->refs), cmp_u64);
	last = UINT64_MAX;
	for (size_t i = 0; i < elf->nsyms && !ret; i++) {
		const struct kft_elf_sym *s = &elf->syms[i];
		const char *why;
		bool part, moved_whole;

		if (!to_plan(elf, i, &last))
			continue;
		if (!kft_hooked_has(&p->hooked, s->addr)) {
			plan->nunhooked++;
			continue;
		}
		if (kft_grow((void **)&plan->funcs, plan->nfuncs, &plan->funcs_cap,
			     sizeof(*plan->funcs), 64)) {
			ret = kft_error_set(err, "out of memory");
			break;
		}
		why = s->name ? not_a_function(s->name) : NULL;
		if (!why && s->made && s->addr == elf->entry)
			why = "the program's entry point (_start): the C runtime's start-up";
		if (!why && s->made)
			why = cold_part(p, s->addr);
		/* (so far, code that is none of the program's functions) */
		part = why != NULL;
		if (!why && !whole[i])
			why = "its code does not all decode (where it branches to is not known)";
		if (!why)
			why = plan_func(p, s, next_start(elf, i), false, &plan->funcs[plan->nfuncs]);
		/* (too short for the jmp: moved whole, to be entered by its
		 * callers) */
		moved_whole = why == too_short &&
			      !plan_func(p, s, next_start(elf, i), true, &plan->funcs[plan->nfuncs]);
		if (moved_whole) {
			int entered = by_callers(p, s, s->addr + s->size,
						 &plan->funcs[plan->nfuncs], plan);

			if (entered < 0) {
				ret = kft_error_set(err, "out of memory");
				break;
			}
			if (entered)
				why = NULL;
		}
		if (!why)
			plan->nfuncs++;
		else if (skip(plan, s, why, part))
			ret = kft_error_set(err, "out of memory");
	}
	free(whole);
	drop_moved_callers(plan);
	return ret;
}

int kft_patch_plan_make(struct kft_patch_plan *plan, const char *path,
			const struct kft_hook_needs *needs, struct kft_error *err)
{
	struct planner p = { 0 };
	struct kft_elf elf;
	struct stat st;
	int ret;

	memset(plan, 0, sizeof(*plan));
	if (!realpath(path, plan->path) || stat(plan->path, &st))
		return kft_error_set(err, "%s: %s", path, strerror(errno));
	plan->file_size = (uint64_t)st.st_size;
	if (kft_elf_open(&elf, plan->path, err))
		return -1;
	if (elf.instrumented) {
		plan->instrumented = true;
		kft_elf_close(&elf);
		return kft_error_set(err, "%s is instrumented: it calls kft's hooks itself, and is "
				     "not patched", plan->path);
	}
	if (kft_elf_add_frame_functions(&elf, err)) {
		kft_elf_close(&elf);
		return -1;
	}
	p.elf = &elf;
	if (!elf.has_symtab)
		p.cfi = kft_frame_cfi_open(&elf);
	if (kft_hooked_functions(&elf, needs, &p.hooked, err))
		ret = -1;
	else if (!ZYAN_SUCCESS(ZydisDecoderInit(&p.dec, ZYDIS_MACHINE_MODE_LONG_64,
					   ZYDIS_STACK_WIDTH_64)))
		ret = kft_error_set(err, "the Zydis decoder would not start");
	else
		ret = plan_all(&p, plan, err);
	kft_frame_cfi_close(p.cfi);
	free(p.branches);
	free(p.refs);
	kft_hooked_free(&p.hooked);
	kft_elf_close(&elf);
	if (ret)
		kft_patch_plan_free(plan);
	return ret;
}

/* Whether some address of at[] lies inside f's first instructions (not
 * at their start: a thread there runs the jmp; nor in one entered by its
 * callers, whose bytes stay). */
static bool inside_first(const struct kft_plan_func *f, const uint64_t *at, size_t n)
{
	for (size_t i = 0; i < n && !f->by_callers; i++)
		if (at[i] > f->patch && at[i] < f->patch + f->orig_len)
			return true;
	return false;
}

int kft_patch_plan_leave_out(struct kft_patch_plan *plan, const uint64_t *at, size_t n,
			     const char *why)
{
	struct kft_elf elf;
	bool tried = false, named = false;
	size_t kept = 0, callers = 0, old_n = plan->nfuncs;
	uint32_t *moved_to = calloc(plan->nfuncs + 1, sizeof(*moved_to));
	int ret = 0;

	if (!moved_to)
		return -1;

	for (size_t i = 0; i < plan->nfuncs; i++) {
		struct kft_elf_sym s = { .addr = plan->funcs[i].func };
		const struct kft_elf_sym *found;

		if (!inside_first(&plan->funcs[i], at, n)) {
			moved_to[i] = (uint32_t)kept;
			plan->funcs[kept++] = plan->funcs[i];
			continue;
		}
		moved_to[i] = UINT32_MAX;
		/* (named as the plan named them; unnamed if the file is gone) */
		if (!tried) {
			tried = true;
			named = !kft_elf_open(&elf, plan->path, NULL);
			if (named)
				kft_elf_add_frame_functions(&elf, NULL);
		}
		found = named ? kft_elf_lookup(&elf, s.addr) : NULL;
		s.name = found && found->addr == s.addr ? found->name : NULL;
		if (!ret && skip(plan, &s, why, false))
			ret = -1;
	}
	plan->nfuncs = kept;
	/* the callers of those kept, by their new places */
	for (size_t i = 0; i < plan->ncallers; i++) {
		uint32_t to = plan->callers[i].func < old_n ? moved_to[plan->callers[i].func]
							     : UINT32_MAX;

		if (to != UINT32_MAX) {
			plan->callers[callers] = plan->callers[i];
			plan->callers[callers++].func = to;
		}
	}
	plan->ncallers = callers;
	free(moved_to);
	if (named)
		kft_elf_close(&elf);
	return ret;
}

int kft_patch_plans_make(const char *prog, bool plain, const struct kft_lib_list *libs,
			 const struct kft_hook_needs *needs, struct kft_patch_plans *out,
			 struct kft_error *err)
{
	size_t nlibs = libs ? libs->n : 0;

	memset(out, 0, sizeof(*out));
	if (!plain && !nlibs)
		return 0;
	out->v = calloc(1 + nlibs, sizeof(*out->v));
	if (!out->v)
		return kft_error_set(err, "out of memory");
	out->program = plain;
	if (plain && kft_patch_plan_make(&out->v[out->n++], prog, needs, err))
		return -1;
	for (size_t i = 0; i < nlibs; i++)
		if (kft_patch_plan_make(&out->v[out->n++], libs->v[i].path, needs, err))
			return -1;
	return 0;
}

void kft_patch_plans_free(struct kft_patch_plans *plans)
{
	for (size_t i = 0; i < plans->n; i++)
		kft_patch_plan_free(&plans->v[i]);
	free(plans->v);
	memset(plans, 0, sizeof(*plans));
}

int kft_patch_plan_write(const struct kft_patch_plan *plans, size_t n, const char *dir,
			 struct kft_error *err)
{
	size_t size = 0, at = 0;
	char *file;
	int ret;

	for (size_t i = 0; i < n; i++)
		size += sizeof(struct kft_plan_hdr) + plans[i].nfuncs * sizeof(*plans[i].funcs) +
			plans[i].ncallers * sizeof(*plans[i].callers);
	file = calloc(1, size);
	if (!file)
		return kft_error_set(err, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct kft_plan_hdr *h = (struct kft_plan_hdr *)(file + at);
		size_t funcs = plans[i].nfuncs * sizeof(*plans[i].funcs);
		size_t callers = plans[i].ncallers * sizeof(*plans[i].callers);

		memcpy(h->magic, KFT_PLAN_MAGIC, sizeof(KFT_PLAN_MAGIC));
		h->version = KFT_PLAN_VERSION;
		h->nfuncs = (uint32_t)plans[i].nfuncs;
		h->ncallers = (uint32_t)plans[i].ncallers;
		h->file_size = plans[i].file_size;
		snprintf(h->path, sizeof(h->path), "%s", plans[i].path);
		if (funcs)
			memcpy(h + 1, plans[i].funcs, funcs);
		if (callers)
			memcpy((char *)(h + 1) + funcs, plans[i].callers, callers);
		at += sizeof(*h) + funcs + callers;
	}
	ret = kft_trace_dir_replace(dir, KFT_PLAN_FILE, file, size, err);
	free(file);
	return ret;
}

void kft_patch_plan_free(struct kft_patch_plan *plan)
{
	for (size_t i = 0; i < plan->nskips; i++)
		free(plan->skips[i].name);
	free(plan->skips);
	free(plan->funcs);
	free(plan->callers);
	plan->skips = NULL;
	plan->funcs = NULL;
	plan->callers = NULL;
	plan->nskips = plan->nfuncs = plan->ncallers = 0;
}
