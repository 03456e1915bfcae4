// SPDX-License-Identifier: LGPL-2.1
/*
 * A program built without instrumentation has its functions' entries
 * patched at start, as kft record planned them (format/patch-plan.h;
 * record/patch-plan.c decided what is safe and how): each function's
 * first instructions become a jmp to its slot among trampolines mapped
 * near the program, which calls kft_dyn_entry (mcount-x86_64.S: -pg
 * -mfentry's entry stub, told the function by the slot), runs the
 * instructions moved there and jumps back behind them (or, where the
 * last of them is a call, returns from it into the function). The exit
 * comes as -pg's does: the entry takes the return address.
 *
 * The program's functions are patched so, and those of the shared
 * libraries kft record --lib named, each module with its own plan. This
 * runs before main, from libkft's constructor, when no thread of the
 * program runs yet (the helper runs none of its code, nor of a library
 * patched: kft record refuses those libkft.so needs): the bytes are
 * written plainly. So with kft record -p, which holds every other thread
 * of the program still meanwhile (record/attach-plain.c), and puts the
 * bytes back itself when it leaves. A library opened later with dlopen
 * is patched as it opens, the program's other threads held still by
 * hold-threads.c meanwhile, but for those asleep in a system call (see
 * kft_dynamic_trap). A function whose bytes are not those
 * planned is left as it is. The patches stay for the program's life; the
 * hooks follow the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "../format/patch-plan.h"
#include "runtime.h"

void kft_dyn_entry(void) KFT_HIDDEN;

#define MAX_PATCHED 256

struct module {
	const struct kft_plan_hdr *plan;
	const struct kft_plan_func *funcs;
	const struct kft_plan_caller *callers;
	uintptr_t bias;			/* runtime address - link-time address */
	const ElfW(Phdr) *phdr;
	size_t phnum;
	size_t seen;			/* loaded objects looked at */
	dev_t dev;			/* the planned file's, as it is now */
	ino_t ino;
};

static KFT_NOTRACE void put_rel(uint8_t *field, uintptr_t from, uintptr_t to)
{
	int32_t rel = (int32_t)(intptr_t)(to - from);

	memcpy(field, &rel, sizeof(rel));
}

/* Where the branch whose rel32 field is at field (its instruction's last
 * four bytes) goes. */
static KFT_NOTRACE uintptr_t rel32_target(uintptr_t field)
{
	int32_t rel;

	memcpy(&rel, (const void *)field, sizeof(rel));
	return field + 4 + (uintptr_t)(intptr_t)rel;
}

/* Whether [lo, hi) lies in one of the module's code segments. */
static KFT_NOTRACE bool in_code(const struct module *m, uintptr_t lo, uintptr_t hi)
{
	for (size_t i = 0; i < m->phnum; i++) {
		const ElfW(Phdr) *ph = &m->phdr[i];
		uintptr_t start = m->bias + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && lo >= start &&
		    hi <= start + ph->p_filesz)
			return true;
	}
	return false;
}

/* Whether f is as planned, whole, and its bytes are there. */
static KFT_NOTRACE bool sound(const struct module *m, const struct kft_plan_func *f)
{
	uintptr_t p = m->bias + f->patch;

	/* (one entered by its callers takes no jmp: it may be shorter) */
	if (f->orig_len < (f->by_callers ? 1 : 5) || f->orig_len > KFT_PLAN_ORIG_MAX ||
	    f->body_len > KFT_PLAN_BODY_MAX || f->nfix > KFT_PLAN_FIXES ||
	    !in_code(m, p, p + f->orig_len))
		return false;
	for (unsigned int i = 0; i < f->nfix; i++)
		if (f->fix[i].field + (f->fix[i].kind == KFT_PLAN_FIX_ADDR ? 8 : 4) > f->body_len ||
		    f->fix[i].insn_end > f->body_len || f->fix[i].kind > KFT_PLAN_FIX_ADDR)
			return false;
	return !memcmp((const void *)p, f->orig, f->orig_len);
}

/* The slot at s for f, or nothing if something is out of its reach (the
 * slot's first byte stays 0). */
static KFT_NOTRACE void fill_slot(uint8_t *s, const struct module *m, const struct kft_plan_func *f)
{
	uintptr_t base = (uintptr_t)s, body = base + KFT_SLOT_BODY;
	uintptr_t back = m->bias + f->patch + f->orig_len, jmp = body + f->body_len;
	uint64_t stub = (uintptr_t)kft_dyn_entry, func = m->bias + f->func;

	if (!kft_rel32_reaches(jmp + 5, back) || !kft_rel32_reaches(m->bias + f->patch + 5, base))
		return;
	for (unsigned int i = 0; i < f->nfix; i++)
		if (f->fix[i].kind == KFT_PLAN_FIX_REL32 &&
		    !kft_rel32_reaches(body + f->fix[i].insn_end, m->bias + f->fix[i].target))
			return;
	s[0] = 0xff;	/* call *KFT_SLOT_STUB(%rip) */
	s[1] = 0x15;
	put_rel(s + 2, base + KFT_SLOT_BODY, base + KFT_SLOT_STUB);
	memcpy(s + KFT_SLOT_BODY, f->body, f->body_len);
	for (unsigned int i = 0; i < f->nfix; i++) {
		uint64_t to = m->bias + f->fix[i].target;

		if (f->fix[i].kind == KFT_PLAN_FIX_ADDR)
			memcpy(s + KFT_SLOT_BODY + f->fix[i].field, &to, sizeof(to));
		else
			put_rel(s + KFT_SLOT_BODY + f->fix[i].field, body + f->fix[i].insn_end, to);
	}
	s[jmp - base] = 0xe9;
	put_rel(s + (jmp - base) + 1, jmp + 5, back);
	memcpy(s + KFT_SLOT_STUB, &stub, sizeof(stub));
	memcpy(s + KFT_SLOT_FUNC, &func, sizeof(func));
}

/* The rel32 field at link-time address at, of a branch to f's start,
 * aimed at to instead. One not as planned stays as it is. */
static KFT_NOTRACE void reaim(const struct module *m, const struct kft_plan_func *f, uint64_t at,
			      uintptr_t to)
{
	uint8_t *field = (uint8_t *)(m->bias + at);
	uintptr_t end = (uintptr_t)field + 4, was;

	if (!in_code(m, (uintptr_t)field, end))
		return;
	was = rel32_target((uintptr_t)field);
	if ((was == m->bias + f->func || was == m->bias + f->patch) && kft_rel32_reaches(end, to))
		put_rel(field, end, to);
}

/* The function of m entered by its callers whose start is at (link
 * time), or n. */
static KFT_NOTRACE size_t by_callers_at(const struct module *m, uint64_t at)
{
	size_t a = 0, b = m->plan->nfuncs;

	while (a < b) {
		size_t mid = a + (b - a) / 2;

		if (m->funcs[mid].func < at)
			a = mid + 1;
		else
			b = mid;
	}
	if (a < m->plan->nfuncs && m->funcs[a].func == at && m->funcs[a].by_callers)
		return a;
	return m->plan->nfuncs;
}

/* A call or jump among the instructions a slot runs moved, to a function
 * entered by its callers, goes through that one's slot too. */
static KFT_NOTRACE void reaim_moved_callers(const struct module *m, uint8_t *slots)
{
	size_t n = m->plan->nfuncs;

	for (size_t i = 0; i < n; i++) {
		const struct kft_plan_func *f = &m->funcs[i];
		uint8_t *body = slots + i * KFT_SLOT_SIZE + KFT_SLOT_BODY;

		if (!body[-KFT_SLOT_BODY])
			continue;
		for (unsigned int k = 0; k < f->nfix; k++) {
			size_t j = by_callers_at(m, f->fix[k].target);
			uintptr_t to = (uintptr_t)(slots + j * KFT_SLOT_SIZE);

			if (f->fix[k].kind == KFT_PLAN_FIX_REL32 && j < n &&
			    slots[j * KFT_SLOT_SIZE] && kft_rel32_reaches((uintptr_t)body + f->fix[k].insn_end, to))
				put_rel(body + f->fix[k].field, (uintptr_t)body + f->fix[k].insn_end, to);
		}
	}
}

/* Write the module's code segments (writable while patched). */
static KFT_NOTRACE int protect_code(const struct module *m, int prot)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	for (size_t i = 0; i < m->phnum; i++) {
		const ElfW(Phdr) *ph = &m->phdr[i];
		uintptr_t lo = (m->bias + ph->p_vaddr) & ~(page - 1);
		uintptr_t hi = (m->bias + ph->p_vaddr + ph->p_memsz + page - 1) & ~(page - 1);

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) &&
		    mprotect((void *)lo, hi - lo, prot))
			return -1;
	}
	return 0;
}

/* Whether a held thread is at an instruction of [lo, hi) (held: NULL
 * when no other thread runs). */
static KFT_NOTRACE bool held_in(const struct kft_held *held, uintptr_t lo, uintptr_t hi)
{
	for (size_t i = 0; held && i < held->n; i++)
		if (held->pc[i] >= lo && held->pc[i] < hi)
			return true;
	return false;
}

/*
 * The modules patched, each by its plan's place in the file, where it is
 * loaded, and its slots: a library opened later is patched once, and
 * one closed and opened again takes its slots back (mappings within
 * reach of a module are few: kft_map_near).
 */
struct patched {
	size_t at;
	uintptr_t bias;
	dev_t dev;			/* its file */
	ino_t ino;
	uint8_t *slots;
	size_t size;
	bool written;			/* a jmp at least */
	bool undone;			/* an int3 was undone in it, at ... */
	uintptr_t undone_bias;		/* ... this bias (kft_dynamic_trap) */
};
static struct patched patched[MAX_PATCHED];
static size_t npatched;
static const void *plan_map;	/* the plan file, mapped for the image's life */

/* Whether to is in e's slots. */
static KFT_NOTRACE bool in_slots(const struct patched *e, uintptr_t to)
{
	return to - (uintptr_t)e->slots < e->size;
}
/* (the table, once threads may run: patching at dlopen, and asking) */
static pthread_mutex_t dynamic_lock = PTHREAD_MUTEX_INITIALIZER;
static bool planned;		/* the trace has a patch plan */

/*
 * A thread asleep in a system call is not held (hold-threads.c), and may
 * wake while a module's functions are written: their entries are then
 * written as patch.c rewrites live sites, an int3 first, every CPU made
 * to resynchronise, the jmp's last four bytes, the first byte. A thread
 * that meets the int3 meanwhile goes on at the function's slot, as the
 * jmp would take it (kft_dynamic_trap); one that trapped before the jmp
 * was whole runs it anew. One that woke before the int3s were there may
 * be inside a function's first bytes: once they are, the sleepers awake
 * are held too, and the int3 of a function one is inside is undone (a
 * trap it caused runs the function's own first instruction anew). For
 * that, the module being written.
 */
static const struct module *writing;
static const uint8_t *writing_slots;

/* The index among funcs (n of them, by address) of the one patched at
 * p, bias the image's; n if none is. */
static KFT_NOTRACE size_t func_at(const struct kft_plan_func *funcs, size_t n, uintptr_t bias,
				  uintptr_t p)
{
	size_t a = 0, b = n;

	while (a < b) {
		size_t mid = a + (b - a) / 2;

		if (bias + funcs[mid].patch < p)
			a = mid + 1;
		else
			b = mid;
	}
	return a < n && bias + funcs[a].patch == p ? a : n;
}

/* Whether p is a function's patch point whose int3 was undone, byte its
 * own first byte again (a trap on it may be handled late, once the
 * module is written). */
static KFT_NOTRACE bool undone_at(uintptr_t p, uint8_t byte)
{
	size_t n = __atomic_load_n(&npatched, __ATOMIC_ACQUIRE);

	for (size_t i = 0; i < n; i++) {
		const struct kft_plan_hdr *h;
		size_t k;

		if (!__atomic_load_n(&patched[i].undone, __ATOMIC_ACQUIRE))
			continue;
		h = (const struct kft_plan_hdr *)((const char *)plan_map + patched[i].at);
		k = func_at(kft_plan_funcs(h), h->nfuncs, patched[i].undone_bias, p);
		if (k < h->nfuncs && kft_plan_funcs(h)[k].orig[0] == byte)
			return true;
	}
	return false;
}

KFT_NOTRACE uintptr_t kft_dynamic_trap(uintptr_t p)
{
	const uint8_t *op = (const uint8_t *)p;
	/* (the module first: once it reads NULL, the jmps it wrote are
	 * whole, and the byte read next is one) */
	const struct module *m = __atomic_load_n(&writing, __ATOMIC_ACQUIRE);
	uint8_t byte = __atomic_load_n(op, __ATOMIC_ACQUIRE);
	size_t a, n;

	if (byte == 0xe9) {
		uintptr_t to = rel32_target(p + 1);

		n = __atomic_load_n(&npatched, __ATOMIC_ACQUIRE);
		for (size_t i = 0; i < n; i++)
			if (in_slots(&patched[i], to))
				return p;	/* whole now: run it */
		return 0;
	}
	if (byte != 0xcc)
		return undone_at(p, byte) ? p : 0;	/* its own instruction again: run it */
	if (!m)
		return 0;
	a = func_at(m->funcs, m->plan->nfuncs, m->bias, p);
	if (a == m->plan->nfuncs || !writing_slots[a * KFT_SLOT_SIZE])
		return 0;
	return (uintptr_t)(writing_slots + a * KFT_SLOT_SIZE);
}

/* Whether f, its slot at slot, gets its jmp: the slot is filled, callers
 * enter f at its start, and no held thread is inside its first bytes. */
static KFT_NOTRACE bool to_write(const struct module *m, const struct kft_plan_func *f,
				 const uint8_t *slot, const struct kft_held *held)
{
	uintptr_t p = m->bias + f->patch;

	return slot[0] && !f->by_callers && !held_in(held, p, p + f->orig_len);
}

/* The int3s written where a function is not to be written after all
 * (all of them: all), its first byte put back: a thread there now runs
 * its own instructions, one that trapped on the int3 runs them anew. */
static KFT_NOTRACE void undo_int3s(const struct module *m, struct patched *e,
				   const uint8_t *slots, const struct kft_held *held, bool all)
{
	bool any = false;

	for (size_t i = 0; i < m->plan->nfuncs; i++) {
		const struct kft_plan_func *f = &m->funcs[i];
		uint8_t *p = (uint8_t *)(m->bias + f->patch);

		if (f->orig[0] == 0xcc || *p != 0xcc ||
		    (!all && to_write(m, f, slots + i * KFT_SLOT_SIZE, held)))
			continue;
		if (!any) {
			e->undone_bias = m->bias;
			__atomic_store_n(&e->undone, true, __ATOMIC_RELEASE);
			any = true;
		}
		__atomic_store_n(p, f->orig[0], __ATOMIC_RELEASE);
	}
	if (any)
		kft_patch_sync_cores();
}

/* The jmps into the slots, written as kft_dynamic_trap expects where
 * threads may wake (live), else plainly; whether any was. */
static KFT_NOTRACE bool write_jmps(const struct module *m, struct patched *e, uint8_t *slots,
				   struct kft_held *held, bool live)
{
	size_t n = m->plan->nfuncs;
	bool any = false;

	if (live) {
		__atomic_store_n(&writing_slots, slots, __ATOMIC_RELAXED);
		__atomic_store_n(&writing, m, __ATOMIC_RELEASE);
		for (size_t i = 0; i < n; i++)
			if (to_write(m, &m->funcs[i], slots + i * KFT_SLOT_SIZE, held))
				__atomic_store_n((uint8_t *)(m->bias + m->funcs[i].patch), 0xcc,
						 __ATOMIC_RELEASE);
		kft_patch_sync_cores();
		/* a sleeper that woke before its int3 was there may have run
		 * into a function's first bytes and stopped there: the
		 * jmp's would be no instructions for it. Each awake is held
		 * now, and a function one is inside is left as it was. */
		if (kft_hold_woken(held)) {
			undo_int3s(m, e, slots, held, true);
			__atomic_store_n(&writing, NULL, __ATOMIC_RELEASE);
			return false;
		}
		undo_int3s(m, e, slots, held, false);
	}
	for (size_t i = 0; i < n; i++) {
		uint8_t *p = (uint8_t *)(m->bias + m->funcs[i].patch), *slot = slots + i * KFT_SLOT_SIZE;

		if (!to_write(m, &m->funcs[i], slot, held))
			continue;
		put_rel(p + 1, (uintptr_t)p + 5, (uintptr_t)slot);
		if (!live)
			p[0] = 0xe9;
		any = true;
	}
	if (live) {
		kft_patch_sync_cores();
		for (size_t i = 0; i < n; i++)
			if (to_write(m, &m->funcs[i], slots + i * KFT_SLOT_SIZE, held))
				__atomic_store_n((uint8_t *)(m->bias + m->funcs[i].patch), 0xe9,
						 __ATOMIC_RELEASE);
		kft_patch_sync_cores();
		__atomic_store_n(&writing, NULL, __ATOMIC_RELEASE);
	}
	return any;
}

/* Whether code of m enters e's slots: a function's jmp, or a call its
 * callers make through one. */
static KFT_NOTRACE bool slots_in_use(const struct module *m, const struct patched *e)
{
	for (size_t i = 0; i < m->plan->nfuncs; i++) {
		const uint8_t *p = (const uint8_t *)(m->bias + m->funcs[i].patch);

		if (in_code(m, (uintptr_t)p, (uintptr_t)p + 5) && p[0] == 0xe9 &&
		    in_slots(e, rel32_target((uintptr_t)p + 1)))
			return true;
	}
	for (size_t i = 0; i < m->plan->ncallers; i++) {
		uintptr_t field = m->bias + m->callers[i].rel32;

		if (in_code(m, field, field + 4) && in_slots(e, rel32_target(field)))
			return true;
	}
	return false;
}

/* The slots of m, in e's mapping: the one it had when nothing enters it
 * any more (m was closed and opened again at the same place), else a new
 * one. */
static KFT_NOTRACE uint8_t *slots_for(const struct module *m, struct patched *e)
{
	size_t size = m->plan->nfuncs * KFT_SLOT_SIZE;

	if (e->slots && e->bias == m->bias && e->size == size &&
	    !mprotect(e->slots, size, PROT_READ | PROT_WRITE)) {
		memset(e->slots, 0, size);
		return e->slots;
	}
	e->slots = (uint8_t *)kft_map_near(m->bias + m->funcs[0].patch, size);
	e->size = e->slots ? size : 0;
	return e->slots;
}

/* Patch m, e its entry in patched. With hold, the program's other
 * threads are held still while the bytes are written (hold-threads.c),
 * and a function one of them is inside the first instructions of is
 * left as it is. */
static KFT_NOTRACE void patch_module(const struct module *m, struct patched *e, bool hold)
{
	static struct kft_held held_pcs;	/* (under dynamic_lock) */
	struct kft_held *held = NULL;
	size_t n = m->plan->nfuncs, size = n * KFT_SLOT_SIZE;
	uint8_t *slots;
	bool live;

	if (!n || !(slots = slots_for(m, e)))
		return;
	for (size_t i = 0; i < n; i++)
		if (sound(m, &m->funcs[i]))
			fill_slot(slots + i * KFT_SLOT_SIZE, m, &m->funcs[i]);
	reaim_moved_callers(m, slots);
	if (mprotect(slots, size, PROT_READ | PROT_EXEC))
		return;
	/* from here to the release, system calls only: a held thread may
	 * hold the loader's lock or malloc's */
	if (hold) {
		if (kft_hold_threads(&held_pcs))
			return;
		held = &held_pcs;
		/* a sleeper may wake: int3s first, if the kernel can make
		 * every CPU resynchronise (asked once, not while holding:
		 * it takes a lock, and an RCU grace period to answer) */
		if (held_pcs.asleep && kft_patch_live_known() < 0) {
			kft_release_threads();
			kft_patch_live();
			if (kft_hold_threads(&held_pcs))
				return;
		}
	}
	live = held && held->asleep && kft_patch_live_known() == 1;
	/* (with other threads, the code stays executable while it is
	 * written: one asleep may wake and run it) */
	if (protect_code(m, PROT_READ | PROT_WRITE | (hold ? PROT_EXEC : 0))) {
		if (hold)
			kft_release_threads();
		return;
	}
	e->written = write_jmps(m, e, slots, held, live);
	/* the functions entered by their callers, through their slots */
	for (size_t i = 0; i < m->plan->ncallers; i++) {
		const struct kft_plan_caller *c = &m->callers[i];
		uint8_t *slot = slots + (size_t)c->func * KFT_SLOT_SIZE;

		if (c->func < n && m->funcs[c->func].by_callers && slot[0])
			reaim(m, &m->funcs[c->func], c->rel32, (uintptr_t)slot);
	}
	protect_code(m, PROT_READ | PROT_EXEC);
	if (hold)
		kft_release_threads();
}

/* The loaded object whose file is m->plan's (m->dev, m->ino): the first
 * is the program. (By the file, not its path: a stat, where resolving
 * the path took a readlink for each of its parts.) */
static KFT_NOTRACE int find_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct module *m = arg;
	const char *path = m->seen++ ? info->dlpi_name : "/proc/self/exe";
	struct stat st;

	(void)size;
	if (!path[0] || stat(path, &st) || st.st_dev != m->dev || st.st_ino != m->ino)
		return 0;
	m->bias = info->dlpi_addr;
	m->phdr = info->dlpi_phdr;
	m->phnum = info->dlpi_phnum;
	return 1;
}

/* Patch the module the plan at m->plan (at at in the file) is for, if it
 * is loaded, is the file planned, and was not patched yet (loaded as it
 * is now: one closed and opened again has its bytes again). */
static KFT_NOTRACE void patch_planned(struct module *m, size_t at, bool hold)
{
	struct patched *e = NULL;
	struct stat st;

	m->seen = 0;
	if (stat(m->plan->path, &st) || (uint64_t)st.st_size != m->plan->file_size)
		return;
	m->dev = st.st_dev;
	m->ino = st.st_ino;
	if (!dl_iterate_phdr(find_module, m))
		return;
	for (size_t i = 0; i < npatched && !e; i++)
		if (patched[i].at == at)
			e = &patched[i];
	if (!e) {
		if (npatched == MAX_PATCHED)
			return;
		e = &patched[npatched];
		e->at = at;
		__atomic_store_n(&npatched, npatched + 1, __ATOMIC_RELEASE);
	} else if (e->bias == m->bias && slots_in_use(m, e)) {
		return;
	}
	e->written = false;
	patch_module(m, e, hold);
	e->bias = m->bias;
	e->dev = st.st_dev;
	e->ino = st.st_ino;
}

KFT_NOTRACE bool kft_dynamic_patched(uintptr_t base, const char *path)
{
	struct stat st;
	bool ret = false;

	if (!npatched || stat(path, &st))
		return false;
	pthread_mutex_lock(&dynamic_lock);
	for (size_t i = 0; i < npatched && !ret; i++)
		ret = patched[i].written && patched[i].bias == base && patched[i].dev == st.st_dev &&
		      patched[i].ino == st.st_ino;
	pthread_mutex_unlock(&dynamic_lock);
	return ret;
}

/* The plan file mapped whole, into *map and *size: 0, or -1 (none). */
static KFT_NOTRACE int map_plan(const void **map, size_t *size)
{
	int fd = openat(kft_dir(), KFT_PLAN_FILE, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *p;

	if (fd < 0)
		return -1;
	p = fstat(fd, &st) || !st.st_size
		    ? MAP_FAILED
		    : mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	*map = p;
	*size = (size_t)st.st_size;
	return 0;
}

/* Whether the plan at map names the program this image runs. */
static KFT_NOTRACE bool program_planned(const void *map, size_t size)
{
	struct stat exe, st;
	size_t block;

	if (stat("/proc/self/exe", &exe))
		return true;	/* (nothing to ask about) */
	for (size_t at = 0; map && at < size; at += block) {
		const struct kft_plan_hdr *h = (const struct kft_plan_hdr *)((const char *)map + at);

		block = kft_plan_block(h, size - at);
		if (!block)
			break;
		if (!stat(h->path, &st) && st.st_dev == exe.st_dev && st.st_ino == exe.st_ino)
			return true;
	}
	return false;
}

/*
 * The program this image runs is not in the plan: exec'd by another, or
 * by a shell. kft record plans it now, as it planned the first
 * (record/plan-server.c), and this image waits for it before its
 * program's first instruction: whether it was added to the plan file.
 * No kft record to ask (a run kft did not start, or one that ended), or
 * an instrumented program: no.
 */
static KFT_NOTRACE bool ask_for_plan(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char path[PATH_MAX], reply = KFT_PLAN_NONE;
	ssize_t len = readlink("/proc/self/exe", path, sizeof(path) - 1);
	int sock;

	if (len <= 0)
		return false;
	path[len++] = '\0';
	snprintf(addr.sun_path, sizeof(addr.sun_path), "/proc/self/fd/%d/%s", kft_dir(),
		 KFT_PLAN_SOCKET);
	sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return false;
	if (!connect(sock, (struct sockaddr *)&addr, sizeof(addr)) &&
	    write(sock, path, (size_t)len) == len)
		while (read(sock, &reply, 1) < 0 && errno == EINTR)
			;
	close(sock);
	return reply == KFT_PLAN_ADDED;
}

/* Patch what the plan names and is loaded, not patched yet; with hold,
 * under the program's other threads, held still meanwhile. The plan is
 * mapped once, for the image's life: each dlopen reads it again (and an
 * unmap would stop every CPU the program runs on). */
static KFT_NOTRACE void patch_loaded(bool hold)
{
	static const void *map;
	static size_t map_size;
	struct module m = { 0 };
	size_t at, block;

	if (!map) {
		bool have = !map_plan(&map, &map_size);

		/* (attached, kft record -p plans the program itself) */
		if (!kft_rt.attached && !program_planned(map, map_size) && ask_for_plan()) {
			if (have)
				munmap((void *)map, map_size);
			have = !map_plan(&map, &map_size);
		}
		if (!have) {
			map = NULL;
			return;
		}
	}
	planned = true;
	plan_map = map;
	/* each module's plan: its header, its functions, their callers */
	for (at = 0; at < map_size; at += block) {
		m.plan = (const struct kft_plan_hdr *)((const char *)map + at);
		block = kft_plan_block(m.plan, map_size - at);
		if (!block)
			break;
		m.funcs = kft_plan_funcs(m.plan);
		m.callers = kft_plan_callers(m.plan);
		patch_planned(&m, at, hold);
	}
}

KFT_NOTRACE void kft_dynamic_patch(void)
{
	patch_loaded(false);
}

KFT_NOTRACE void kft_dynamic_patch_opened(void)
{
	/* (attached, kft record -p plans only what is loaded) */
	if (kft_rt.attached || !planned)
		return;
	pthread_mutex_lock(&dynamic_lock);
	patch_loaded(true);
	pthread_mutex_unlock(&dynamic_lock);
}
