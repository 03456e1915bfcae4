// SPDX-License-Identifier: LGPL-2.1
/*
 * -fpatchable-function-entry=5: every function begins with five bytes of
 * NOPs, and the section __patchable_function_entries lists where. Not
 * traced, the program runs its NOPs and pays nothing. Under kft record
 * the runtime turns each into a call to a stub placed within reach of
 * the module, which jumps to __fentry__: from there on it is -pg -mfentry
 * (hooks.c). Patching happens at start, before main, and for a library
 * opened with dlopen, when it is opened.
 *
 * kft record -p loads the runtime into a program that runs already
 * (kft_attach): its sites are rewritten live from the start, and when
 * the run ends they become NOPs for good.
 *
 * While the program runs, the helper thread follows the run: when it
 * ends, the calls become NOPs again, and when it is armed again (kft
 * prime, kft start, autorepeat) they come back. Other threads may be
 * executing the very bytes being changed, so a site is rewritten as the
 * kernel's dynamic ftrace does it: an int3 on the first byte, every CPU
 * made to resynchronise its instruction stream (membarrier SYNC_CORE),
 * the last four bytes, a resynchronisation, the first byte, and one more.
 * A thread that meets the int3 meanwhile skips the site (one entry not
 * traced) or runs it anew once it is whole. Where the kernel offers no
 * membarrier SYNC_CORE, the calls stay for the program's life.
 */
#include <limits.h>
#include <link.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "../format/control.h"
#include "../symbols/elf-symtab.h"
#include "runtime.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define MAX_MODULES 256
#define INT3 0xcc

/* our __fentry__ (mcount-x86_64.S), whoever else defines one */
void kft_fentry(void) KFT_HIDDEN;

/* A module's patchable sites, and the stub its calls go through. */
struct module_sites {
	const uintptr_t *entry;		/* the module's __patchable_function_entries */
	size_t n;
	uintptr_t lo, hi;		/* the bytes the sites span */
	uintptr_t stub;
};

static struct module_sites modules[MAX_MODULES];
static int nmodules;			/* read by the trap handler: atomic */

/* What a loaded object held when last looked at: each dlopen looks at
 * every object again, and reading one's headers maps and unmaps its file
 * (a TLB shootdown on every CPU the program runs on). */
struct seen_object {
	struct kft_object_id id;
	struct module_sites *m;		/* NULL: it has no sites */
};

static struct seen_object seen[MAX_MODULES];
static int nseen;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool calls_on = true;		/* what the sites hold now */
static int live = -1;			/* membarrier SYNC_CORE: -1 not asked yet, 0 no, 1 yes */

static const unsigned char nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

static KFT_NOTRACE bool is_nop5(const unsigned char *p)
{
	static const unsigned char nops[5] = { 0x90, 0x90, 0x90, 0x90, 0x90 };

	/* five one-byte NOPs (gcc), or nopl disp8(%rax,%rax,1), any disp8
	 * (clang, and ours) */
	return !memcmp(p, nops, 5) || !memcmp(p, nop5, 4);
}

static KFT_NOTRACE bool is_call_to(const unsigned char *p, uintptr_t stub)
{
	int32_t rel;

	memcpy(&rel, p + 1, sizeof(rel));
	return p[0] == 0xe8 && (uintptr_t)p + 5 + (intptr_t)rel == stub;
}

static KFT_NOTRACE bool in_reach(uintptr_t p, uintptr_t stub)
{
	return kft_rel32_reaches(p + 5, stub);
}

/* size bytes, read-write, within 1 GiB of addr, so that a rel32 from
 * anywhere near addr reaches them; 0 if none could be had. */
KFT_NOTRACE uintptr_t kft_map_near(uintptr_t addr, size_t size)
{
	long page = sysconf(_SC_PAGESIZE);

	/* below the code, then above it (a non-PIE program sits low) */
	for (int step = 1; step < 128; step++) {
		uintptr_t off = (uintptr_t)((step + 1) / 2) * (16UL << 20);
		uintptr_t hint = (step % 2 ? addr - off : addr + off) & ~(uintptr_t)(page - 1);
		void *p;

		if ((step % 2 && off >= addr) || hint < (uintptr_t)page)
			continue;
		p = mmap((void *)hint, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (p == MAP_FAILED)
			continue;
		if ((uintptr_t)p == hint)
			return hint;
		munmap(p, size);	/* an old kernel took the hint as a hint */
	}
	return 0;
}

/* A page within reach of addr holding "jmp *0(%rip); .quad __fentry__". */
static KFT_NOTRACE uintptr_t make_stub(uintptr_t addr)
{
	static const unsigned char jmp[6] = { 0xff, 0x25, 0x00, 0x00, 0x00, 0x00 };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t target = (uintptr_t)kft_fentry;
	unsigned char *p = (unsigned char *)kft_map_near(addr, page);

	if (!p)
		return 0;
	memcpy(p, jmp, sizeof(jmp));
	memcpy(p + sizeof(jmp), &target, sizeof(target));
	if (mprotect(p, page, PROT_READ | PROT_EXEC)) {
		munmap(p, page);
		return 0;
	}
	return (uintptr_t)p;
}

/* Every CPU running this process drops what it fetched of the old code
 * (once kft_patch_live said yes). */
KFT_NOTRACE void kft_patch_sync_cores(void)
{
	if (live == 1)
		syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0);
}

static KFT_NOTRACE bool is_site(uintptr_t p)
{
	int n = __atomic_load_n(&nmodules, __ATOMIC_ACQUIRE);

	for (int m = 0; m < n; m++) {
		if (p < modules[m].lo || p >= modules[m].hi)
			continue;
		for (size_t i = 0; i < modules[m].n; i++)
			if (modules[m].entry[i] == p)
				return true;
	}
	return false;
}

/* A thread met a site being rewritten: skip it while it is an int3, run
 * it anew once it is whole; or a function entry dynamic.c is writing.
 * Any other trap is the program's. */
static KFT_NOTRACE void on_trap(int sig, siginfo_t *info, void *uctx)
{
#if defined(__x86_64__)
	ucontext_t *uc = uctx;
	uintptr_t p = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP] - 1, to;

	if (is_site(p)) {
		uc->uc_mcontext.gregs[REG_RIP] =
			(greg_t)(*(volatile unsigned char *)p == INT3 ? p + 5 : p);
		return;
	}
	to = kft_dynamic_trap(p);
	if (to) {
		uc->uc_mcontext.gregs[REG_RIP] = (greg_t)to;
		return;
	}
#endif
	kft_signal_pass(sig, info, uctx);
}

/* The five bytes a site should hold. */
static KFT_NOTRACE void wanted(const struct module_sites *m, uintptr_t p, bool calls,
			       unsigned char w[5])
{
	int32_t rel = (int32_t)(m->stub - (p + 5));

	if (!calls) {
		memcpy(w, nop5, 5);
		return;
	}
	w[0] = 0xe8;
	memcpy(w + 1, &rel, sizeof(rel));
}

/* Over the sites that hold an int3 now: write their tails, or (head)
 * their first bytes. */
static KFT_NOTRACE void finish_sites(const struct module_sites *m, bool calls, bool head)
{
	for (size_t i = 0; i < m->n; i++) {
		unsigned char *p = (unsigned char *)m->entry[i], w[5];

		if (p[0] != INT3 || !in_reach((uintptr_t)p, m->stub))
			continue;
		wanted(m, (uintptr_t)p, calls, w);
		if (head)
			__atomic_store_n(p, w[0], __ATOMIC_RELEASE);
		else
			memcpy(p + 1, w + 1, 4);
	}
}

/* Bring one module's sites to calls or NOPs. */
static KFT_NOTRACE void rewrite(const struct module_sites *m, bool calls)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = m->lo & ~(page - 1);
	size_t len = ((m->hi + page - 1) & ~(page - 1)) - lo;
	size_t changing = 0;

	if (mprotect((void *)lo, len, PROT_READ | PROT_WRITE | PROT_EXEC))
		return;
	/* 1: an int3 where a site changes (a site that is neither ours nor a
	 * NOP, a debugger's breakpoint say, is left alone). Without the means
	 * to resynchronise other CPUs (then only at start or dlopen), the tail
	 * is written first and the first byte last, as before. */
	for (size_t i = 0; i < m->n; i++) {
		unsigned char *p = (unsigned char *)m->entry[i], w[5];

		if (!in_reach((uintptr_t)p, m->stub) || (!is_nop5(p) && !is_call_to(p, m->stub)))
			continue;
		wanted(m, (uintptr_t)p, calls, w);
		if (!memcmp(p, w, 5))
			continue;
		if (live == 1) {
			__atomic_store_n(p, INT3, __ATOMIC_RELEASE);
			changing++;
		} else {
			memcpy(p + 1, w + 1, 4);
			__atomic_store_n(p, w[0], __ATOMIC_RELEASE);
		}
	}
	if (changing) {
		kft_patch_sync_cores();
		finish_sites(m, calls, false);	/* 2: the tails, behind the int3s */
		kft_patch_sync_cores();
		finish_sites(m, calls, true);	/* 3: the first bytes */
		kft_patch_sync_cores();
	}
	mprotect((void *)lo, len, PROT_READ | PROT_EXEC);
}

/* Note one module's sites; NULL if it has none or no stub. A module
 * whose list lies where an earlier one's did (that one closed, this one
 * opened in its place, or the same file rebuilt) takes over its entry,
 * and its stub if that is within reach. */
static KFT_NOTRACE struct module_sites *add_module(const char *path, uintptr_t base)
{
	struct module_sites *m = NULL;
	const uintptr_t *entry;
	uintptr_t lo = UINTPTR_MAX, hi = 0, stub;
	uint64_t vaddr, size;
	size_t n;

	if (kft_elf_section(path, "__patchable_function_entries", &vaddr, &size))
		return NULL;
	n = size / sizeof(*entry);
	entry = (const uintptr_t *)(base + vaddr);
	if (!n)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (entry[i] < lo)
			lo = entry[i];
		if (entry[i] + 5 > hi)
			hi = entry[i] + 5;
	}
	for (int i = 0; i < nmodules && !m; i++)
		if (modules[i].entry == entry)
			m = &modules[i];
	if (m && m->n == n && m->lo == lo && m->hi == hi)
		return m;
	if (!m && nmodules == MAX_MODULES)
		return NULL;
	stub = m && in_reach(lo, m->stub) && in_reach(hi - 5, m->stub) ? m->stub : make_stub(lo);
	if (!stub)
		return NULL;
	if (m) {
		/* (under lock: no int3 of ours is in its code meanwhile) */
		*m = (struct module_sites){ entry, n, lo, hi, stub };
		return m;
	}
	m = &modules[nmodules];
	*m = (struct module_sites){ entry, n, lo, hi, stub };
	__atomic_store_n(&nmodules, nmodules + 1, __ATOMIC_RELEASE);
	return m;
}

/* The object at base whose file is st, if it was looked at before. */
static KFT_NOTRACE struct seen_object *find_seen(uintptr_t base, const struct stat *st)
{
	for (int i = 0; i < nseen; i++)
		if (kft_object_is(&seen[i].id, base, st))
			return &seen[i];
	return NULL;
}

static KFT_NOTRACE int add_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	char real[PATH_MAX];
	const char *path = kft_object_path(info, real, sizeof(real));
	struct seen_object *s = NULL;
	struct module_sites *m;
	struct stat st;
	bool known = false;

	(void)size;
	(void)arg;
	if (!path)
		return 0;	/* the vDSO */
	if (!stat(path, &st)) {
		known = (s = find_seen(info->dlpi_addr, &st)) != NULL;
		if (!s && nseen < MAX_MODULES)
			s = &seen[nseen++];
	}
	m = known ? s->m : add_module(path, info->dlpi_addr);
	if (s && !known)
		*s = (struct seen_object){ kft_object_id(info->dlpi_addr, &st), m };
	if (m)
		rewrite(m, calls_on);
	return 0;
}

/* Whether code may be rewritten while other threads run it; the first
 * time, also take over SIGTRAP for the int3s. Asked by the helper thread
 * only: registering takes the kernel an RCU grace period (16 ms here),
 * which the program should not wait for at start. */
static KFT_NOTRACE bool can_rewrite_live(void)
{
	if (live < 0) {
		live = !syscall(__NR_membarrier,
				MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0) &&
		       !kft_signal_own(SIGTRAP, on_trap);
	}
	return live == 1;
}

KFT_NOTRACE int kft_patch_live_known(void)
{
	return __atomic_load_n(&live, __ATOMIC_ACQUIRE);
}

KFT_NOTRACE bool kft_patch_live(void)
{
	bool ok;

	pthread_mutex_lock(&lock);
	ok = can_rewrite_live();
	pthread_mutex_unlock(&lock);
	return ok;
}

KFT_NOTRACE bool kft_patch_detached(void)
{
	uint64_t st = __atomic_load_n(&kft_rt.ctl->state, __ATOMIC_ACQUIRE);

	if (st & KFT_STATE_DETACHED)
		return true;
	if (!(__atomic_load_n(&kft_rt.ctl->mode, __ATOMIC_ACQUIRE) & KFT_MODE_DETACH) ||
	    !(st & KFT_STATE_COMPLETE) || __atomic_load_n(&calls_on, __ATOMIC_ACQUIRE))
		return false;
	kft_plt_unhook_all();	/* --libcalls: the GOT as it was */
	__atomic_fetch_or(&kft_rt.ctl->state, KFT_STATE_DETACHED, __ATOMIC_RELEASE);
	return true;
}

/* At start and after dlopen: every module's sites to calls (or to what
 * the run wants now, if the helper already turned them off). */
KFT_NOTRACE void kft_patch_all(void)
{
	pthread_mutex_lock(&lock);
	dl_iterate_phdr(add_object, NULL);
	pthread_mutex_unlock(&lock);
}

/* In a fork child: the membarrier registration was the parent's. */
KFT_NOTRACE void kft_patch_forked(void)
{
	pthread_mutex_init(&lock, NULL);
	if (live == 1)
		live = -1;
}

/* From the helper thread: calls while a run is armed or running, NOPs
 * once it is over, unless a full log ended it: the calls it loses are
 * counted, and only the hooks see them. */
KFT_NOTRACE void kft_patch_follow_run(void)
{
	uint64_t st = __atomic_load_n(&kft_rt.ctl->state, __ATOMIC_ACQUIRE);
	/* (attached, the program is left as it was found, full log or not) */
	bool want = ((st & (KFT_STATE_PRIMED | KFT_STATE_TRIGGERED)) && !(st & KFT_STATE_COMPLETE)) ||
		    (kft_log_filled() && !kft_rt.attached);

	if (want == __atomic_load_n(&calls_on, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&lock);
	/* (with no module of sites, what they would hold is followed all
	 * the same: kft_patch_detached asks for it) */
	if (want != calls_on && (!nmodules || can_rewrite_live())) {
		calls_on = want;
		for (int i = 0; i < nmodules; i++)
			rewrite(&modules[i], want);
	}
	pthread_mutex_unlock(&lock);
}
