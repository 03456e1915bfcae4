/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A program built without any instrumentation flag is traced by patching
 * its functions' entries as it loads. `kft record` decodes the binary
 * (record/patch-plan.c, with the Zydis disassembler) and leaves what to
 * do in the trace directory as KFT_PLAN_FILE; the runtime
 * (runtime/dynamic.c) only copies bytes and fills in addresses, so that
 * the traced process needs no disassembler.
 *
 * For each function, a jmp to its own trampoline slot replaces the first
 * instructions at its patch point (after an endbr64): the slot calls the
 * entry stub (kft_dyn_entry, which works as -pg -mfentry's __fentry__
 * does), runs those instructions, rewritten to work from there, and
 * jumps back behind them. A call among them (always the last: it ends
 * past the jmp's five bytes) is made as a push of its return address in
 * the function, behind the jmp, and a jump: the callee returns into the
 * function itself, where unwinders know the frame.
 *
 * A jump to a function's start, from its own code too (a tail call of
 * itself, which gcc -O2 leaves as jmp <self>), lands on the jmp: it is
 * counted as a call, as the hook of an instrumented build counts it.
 *
 * A function shorter than the jmp is moved whole into its slot and
 * entered by its callers instead (by_callers): their rel32 calls and
 * jumps to it are re-aimed at the slot.
 */
#ifndef KFT_PATCH_PLAN_H
#define KFT_PATCH_PLAN_H

#include <stdint.h>
#include <string.h>

#define KFT_PLAN_FILE "patch-plan"
/* A process whose program is not in the plan (exec'd by another, or by
 * a shell) asks kft record for its plan here: it sends the program's
 * path, ended by a NUL, and waits for one byte: KFT_PLAN_ADDED (the plan
 * file holds its block now) or KFT_PLAN_NONE (instrumented, or not to
 * be patched). The trace directory's socket. */
#define KFT_PLAN_SOCKET "plan.sock"
#define KFT_PLAN_ADDED 'p'
#define KFT_PLAN_NONE 'n'
#define KFT_PLAN_MAGIC "KFTPLAN"
#define KFT_PLAN_VERSION 4

/*
 * A trampoline slot, 64 bytes, 64-aligned (the stub finds the function's
 * address from where its call returns to):
 *    0  ff 15 rel32      call *KFT_SLOT_STUB(%rip)
 *    6  body             the first instructions, relocated
 *       e9 rel32         jmp behind them
 *   48  the stub's address
 *   56  the function's address
 */
#define KFT_SLOT_SIZE 64
#define KFT_SLOT_BODY 6
#define KFT_SLOT_STUB 48
#define KFT_SLOT_FUNC 56
#define KFT_PLAN_BODY_MAX (KFT_SLOT_STUB - KFT_SLOT_BODY - 5)
#define KFT_PLAN_ORIG_MAX 24	/* bytes the jmp covers, whole instructions */
#define KFT_PLAN_FIXES 4

/* A field of the body that must point at target: a rel32 counted from
 * the end of its instruction, or an address, 8 bytes. */
enum { KFT_PLAN_FIX_REL32, KFT_PLAN_FIX_ADDR };

struct kft_plan_fix {
	uint8_t field;		/* the field's offset in the body */
	uint8_t insn_end;	/* its instruction's end, in the body (rel32) */
	uint8_t kind;		/* KFT_PLAN_FIX_* */
	uint8_t pad[5];
	uint64_t target;	/* link-time address */
};

struct kft_plan_func {
	uint64_t func;		/* link-time address of the function */
	uint64_t patch;		/* of the patch point: func, or after an endbr64 */
	uint8_t orig_len;	/* bytes from patch the jmp replaces (at least 5) */
	uint8_t body_len;
	uint8_t nfix;
	uint8_t by_callers;	/* entered by its callers re-aimed, not by a jmp */
	uint8_t pad[4];
	uint8_t orig[KFT_PLAN_ORIG_MAX];	/* what they are: checked first */
	uint8_t body[KFT_PLAN_BODY_MAX + 1];
	struct kft_plan_fix fix[KFT_PLAN_FIXES];
};

/* A call or jump to a by_callers function: its rel32 field. */
struct kft_plan_caller {
	uint32_t func;		/* the function's index among the module's */
	uint32_t pad;
	uint64_t rel32;		/* link-time address of the field */
};

/* The file: for each module patched (the program first, if it is, then
 * the libraries kft record --lib names), this header, then nfuncs
 * struct kft_plan_func by address, then ncallers struct kft_plan_caller. */
struct kft_plan_hdr {
	char magic[8];
	uint32_t version;
	uint32_t nfuncs;
	uint64_t file_size;	/* the module's, as a check that it is the one planned */
	uint32_t ncallers;
	uint32_t pad;
	char path[4096];	/* the module, as the runtime names loaded objects */
};

/* The size of the module's block at h, if avail bytes hold a whole one
 * (its magic, version and path checked), else 0. */
static inline size_t kft_plan_block(const struct kft_plan_hdr *h, size_t avail)
{
	size_t funcs = sizeof(struct kft_plan_func), callers = sizeof(struct kft_plan_caller);

	if (avail < sizeof(*h) || memcmp(h->magic, KFT_PLAN_MAGIC, sizeof(KFT_PLAN_MAGIC)) ||
	    h->version != KFT_PLAN_VERSION || h->path[sizeof(h->path) - 1] ||
	    (avail - sizeof(*h)) / funcs < h->nfuncs ||
	    (avail - sizeof(*h) - h->nfuncs * funcs) / callers < h->ncallers)
		return 0;
	return sizeof(*h) + h->nfuncs * funcs + h->ncallers * callers;
}

/* Its functions and callers. */
static inline const struct kft_plan_func *kft_plan_funcs(const struct kft_plan_hdr *h)
{
	return (const struct kft_plan_func *)(h + 1);
}

static inline const struct kft_plan_caller *kft_plan_callers(const struct kft_plan_hdr *h)
{
	return (const struct kft_plan_caller *)(kft_plan_funcs(h) + h->nfuncs);
}

#endif
