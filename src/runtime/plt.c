// SPDX-License-Identifier: LGPL-2.1
/*
 * Library calls (kft record --libcalls): the traced code's calls into
 * shared libraries go through its GOT, a slot per imported function (the
 * PLT's jump reads it, lazily bound or not; code built with -fno-plt
 * calls through a GLOB_DAT slot itself, which is taken only where the
 * code never reads the function's address from it: got-refs.c). Each
 * slot of the program's file, and of every instrumented library (at
 * start, and as dlopen opens one), is pointed at a stub of ours, which pushes the slot's number and
 * goes to kft_plt_common (plt-x86_64.S): the call's entry is recorded,
 * its return address taken as the -pg hooks take it (hooks.c, so its
 * end, a longjmp past it, an exception through it are theirs too), and
 * the function the slot held runs. A slot whose function lies in
 * instrumented code is left: that call is recorded by its own hooks.
 * With --libcalls=all every library's slots are taken too.
 *
 * A call is named by the function it reaches: the defining library's
 * symbol of the imported name (an IFUNC's own symbol, not the variant it
 * chose), so that `memcpy` reads memcpy. Left alone: functions of libkft
 * itself (the hooks, and the calls it stands between: longjmp, exec...;
 * but dlopen and dlclose, which return as the C library's do, are the
 * program's calls and are recorded), functions that return twice or into another stack (setjmp,
 * vfork, getcontext), _Unwind_Resume, from which an exception's unwinding
 * goes on through the caller (its return address must be the caller's),
 * and __libc_start_main, whose call holds the whole program.
 */
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../symbols/elf-symtab.h"
#include "runtime.h"

void kft_plt_common(void) KFT_HIDDEN;

#define STUB_SIZE 16	/* pushq $n (5 bytes), jmp *common(%rip) (6), int3s */

struct plt_slot {
	uintptr_t target;	/* where the call goes on to */
	uintptr_t func;		/* what it is recorded as */
	uintptr_t *got;		/* the slot, and what it held (kft record -p */
	uintptr_t orig;		/* gives it back on leaving) */
	bool relro;		/* in a part read-only after relocation */
};

/* Slots never move (a stub may run while dlopen adds others): room for
 * MAX_SLOTS, reserved once, touched as used */
#define MAX_SLOTS (1 << 20)
#define MAX_OBJECTS 512
static struct plt_slot *slots;
static size_t nslots;
static struct {
	uintptr_t base;		/* an object done */
	size_t first, n;	/* its slots */
} hooked[MAX_OBJECTS];
static size_t nhooked;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const never[] = {
	"__libc_start_main", "vfork", "setjmp", "_setjmp", "sigsetjmp", "__sigsetjmp",
	"getcontext",
	/* unwinding goes on from it, reading its return address */
	"_Unwind_Resume",
};

KFT_NOTRACE uintptr_t kft_plt_target(uint64_t n)
{
	return slots[n].target;
}

KFT_NOTRACE uintptr_t kft_plt_func(uint64_t n)
{
	return slots[n].func;
}

/* What instrumented() found of each object, by its base and file (each
 * dlopen asks of every object not hooked, and reading one's headers maps
 * and unmaps its file); and the last one asked, as most slots of an
 * object call into the same library: forgotten at dlclose (another may
 * come at its base). */
static struct {
	struct kft_object_id id;
	bool answer;
} asked[MAX_OBJECTS];
static size_t nasked;
static uintptr_t asked_base;
static bool asked_answer;

/* Whether the object at base (its file path; "" for the program) is
 * instrumented, or patched as it loaded: its calls are recorded by their
 * own hooks. */
static KFT_NOTRACE bool instrumented(uintptr_t base, const char *path)
{
	struct kft_elf elf;
	struct stat st;
	bool known;

	if (base == asked_base && asked_base)
		return asked_answer;
	asked_base = base;
	asked_answer = false;
	if (path && !*path)
		path = "/proc/self/exe";
	if (!path)
		return false;
	known = !stat(path, &st);
	for (size_t i = 0; known && i < nasked; i++)
		if (kft_object_is(&asked[i].id, base, &st))
			return asked_answer = asked[i].answer;
	if (kft_dynamic_patched(base, path)) {
		asked_answer = true;
	} else if (!kft_elf_open_headers(&elf, path, NULL)) {
		asked_answer = elf.patch_size || elf.calls_hooks;
		kft_elf_close(&elf);
	} else {
		return false;
	}
	if (known && nasked < MAX_OBJECTS) {
		asked[nasked].id = kft_object_id(base, &st);
		asked[nasked++].answer = asked_answer;
	}
	return asked_answer;
}

/* Where libkft is loaded */
static KFT_NOTRACE uintptr_t self_base(void)
{
	static uintptr_t base;
	Dl_info self;

	if (!base && dladdr((void *)kft_plt_common, &self))
		base = (uintptr_t)self.dli_fbase;
	return base;
}

/* libkft's own functions that stand for the C library's and return as
 * it does: their calls are the program's library calls all the same */
static const char *const stand_ins[] = { "dlopen", "dlclose" };

static KFT_NOTRACE bool left_alone(const char *name, uintptr_t target)
{
	Dl_info in;

	for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		if (!strcmp(name, never[i]))
			return true;
	if (!self_base() || !dladdr((void *)target, &in))
		return true;
	if ((uintptr_t)in.dli_fbase == self_base()) {
		for (size_t i = 0; i < sizeof(stand_ins) / sizeof(stand_ins[0]); i++)
			if (!strcmp(name, stand_ins[i]))
				return false;
		return true;
	}
	return instrumented((uintptr_t)in.dli_fbase, in.dli_fname);
}

/* The library last read for func_of */
struct library {
	struct kft_elf elf;
	uintptr_t base;
	bool open;
};

/* The defining library's symbol for name at target: itself, or for an
 * IFUNC (target is the variant it chose) the symbol the name has. */
static KFT_NOTRACE uintptr_t func_of(struct library *lib, const char *name, uintptr_t target)
{
	uint64_t addr;
	Dl_info in;

	if (!dladdr((void *)target, &in) || !in.dli_fname)
		return target;
	if (in.dli_sname && !strcmp(in.dli_sname, name))
		return target;
	if (!lib->open || lib->base != (uintptr_t)in.dli_fbase) {
		if (lib->open)
			kft_elf_close(&lib->elf);
		lib->open = !kft_elf_open(&lib->elf, in.dli_fname, NULL);
		lib->base = (uintptr_t)in.dli_fbase;
		if (!lib->open)
			return target;
	}
	/* (a name two functions have says nothing sure) */
	if (kft_elf_find(&lib->elf, name, &addr, 1) != 1)
		return target;
	return lib->elf.dynamic ? lib->base + addr : addr;
}

struct dyn {
	const ElfW(Rela) *jmprel;	/* the PLT's slots */
	size_t njmprel;
	const ElfW(Rela) *rela;		/* the rest: GLOB_DAT slots among them */
	size_t nrela;
	const ElfW(Sym) *symtab;
	const char *strtab;
};

/* d_ptr as the dynamic linker left it: moved by the base, or not yet */
static KFT_NOTRACE uintptr_t dyn_ptr(uintptr_t base, uintptr_t v)
{
	return v < base ? base + v : v;
}

static KFT_NOTRACE bool read_dynamic(const struct dl_phdr_info *info, struct dyn *d)
{
	const ElfW(Dyn) *dyn = NULL;

	memset(d, 0, sizeof(*d));
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
		uintptr_t p = dyn_ptr(info->dlpi_addr, dyn->d_un.d_ptr);

		if (dyn->d_tag == DT_JMPREL)
			d->jmprel = (const ElfW(Rela) *)p;
		else if (dyn->d_tag == DT_PLTRELSZ)
			d->njmprel = dyn->d_un.d_val / sizeof(ElfW(Rela));
		else if (dyn->d_tag == DT_RELA)
			d->rela = (const ElfW(Rela) *)p;
		else if (dyn->d_tag == DT_RELASZ)
			d->nrela = dyn->d_un.d_val / sizeof(ElfW(Rela));
		else if (dyn->d_tag == DT_SYMTAB)
			d->symtab = (const ElfW(Sym) *)p;
		else if (dyn->d_tag == DT_STRTAB)
			d->strtab = (const char *)p;
		else if (dyn->d_tag == DT_PLTREL && dyn->d_un.d_val != DT_RELA)
			return false;
	}
	if (!d->jmprel)
		d->njmprel = 0;
	if (!d->rela)
		d->nrela = 0;
	return (d->njmprel || d->nrela) && d->symtab && d->strtab;
}

struct called_slot {
	uintptr_t slot;
	const ElfW(Rela) *r;
};

static KFT_NOTRACE int by_slot(const void *a, const void *b)
{
	const struct called_slot *x = a, *y = b;

	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/*
 * The GLOB_DAT slots of functions the object imports that its code
 * calls through and never takes the address from (got-refs.c): the calls
 * of code built with -fno-plt. Their relocations into *out (malloc'd;
 * NULL if none): how many.
 */
static KFT_NOTRACE size_t called_only(const struct dl_phdr_info *info, const struct dyn *d,
				      const ElfW(Rela) ***out)
{
	struct called_slot *c = NULL;
	uintptr_t *addrs = NULL;
	bool *called = NULL, *other = NULL;
	size_t n = 0, kept = 0;

	*out = NULL;
	if (!d->nrela || !(c = malloc(d->nrela * sizeof(*c))))
		return 0;
	for (size_t i = 0; i < d->nrela; i++) {
		const ElfW(Rela) *r = &d->rela[i];
		const ElfW(Sym) *sym = &d->symtab[ELF64_R_SYM(r->r_info)];
		unsigned int type = ELF64_ST_TYPE(sym->st_info);

		if (ELF64_R_TYPE(r->r_info) == R_X86_64_GLOB_DAT && sym->st_shndx == SHN_UNDEF &&
		    d->strtab[sym->st_name] && (type == STT_FUNC || type == STT_GNU_IFUNC))
			c[n++] = (struct called_slot){ info->dlpi_addr + r->r_offset, r };
	}
	if (!n) {
		free(c);
		return 0;
	}
	qsort(c, n, sizeof(*c), by_slot);
	addrs = malloc(n * sizeof(*addrs));
	called = malloc(n * sizeof(*called));
	other = malloc(n * sizeof(*other));
	*out = malloc(n * sizeof(**out));
	if (addrs && called && other && *out) {
		for (size_t i = 0; i < n; i++)
			addrs[i] = c[i].slot;
		kft_got_refs(info, addrs, n, called, other);
		for (size_t i = 0; i < n; i++)
			if (called[i] && !other[i])
				(*out)[kept++] = c[i].r;
	}
	free(c);
	free(addrs);
	free(called);
	free(other);
	if (!kept) {
		free(*out);
		*out = NULL;
	}
	return kept;
}

/* Whether p lies in a segment of the object of this type: PT_LOAD, its
 * own memory (a slot not yet bound points at its PLT); PT_GNU_RELRO, a
 * part made read-only after relocation */
static KFT_NOTRACE bool in_segment(const struct dl_phdr_info *info, uintptr_t p, uint32_t type)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == type && p >= start && p < start + ph->p_memsz)
			return true;
	}
	return false;
}

/* Store v in GOT slot got, made writable for it if it lies in a part
 * read-only after relocation: whether it was stored */
static KFT_NOTRACE bool set_slot(uintptr_t *got, uintptr_t v, bool relro)
{
	long page = sysconf(_SC_PAGESIZE);
	void *at = (void *)((uintptr_t)got & ~(uintptr_t)(page - 1));

	if (relro && mprotect(at, (size_t)page, PROT_READ | PROT_WRITE))
		return false;
	__atomic_store_n(got, v, __ATOMIC_RELEASE);
	if (relro)
		mprotect(at, (size_t)page, PROT_READ);
	return true;
}

/* The stubs for slots first to first + n, and the cell they jump
 * through */
static KFT_NOTRACE unsigned char *make_stubs(size_t first, size_t n)
{
	size_t size = 16 + n * STUB_SIZE;
	unsigned char *code = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				   -1, 0);

	if (code == MAP_FAILED)
		return NULL;
	*(uintptr_t *)code = (uintptr_t)kft_plt_common;
	for (size_t i = 0; i < n; i++) {
		unsigned char *s = code + 16 + i * STUB_SIZE;
		int32_t idx = (int32_t)(first + i), to_cell = (int32_t)(code - (s + 11));

		memset(s, 0xcc, STUB_SIZE);
		s[0] = 0x68;			/* pushq $i */
		memcpy(s + 1, &idx, 4);
		s[5] = 0xff;			/* jmp *cell(%rip) */
		s[6] = 0x25;
		memcpy(s + 7, &to_cell, 4);
	}
	if (mprotect(code, size, PROT_READ | PROT_EXEC)) {
		munmap(code, size);
		return NULL;
	}
	return code;
}

/* One object's slots, once (the program, or an instrumented library) */
static KFT_NOTRACE int hook_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct library lib = { .open = false };
	bool program = !info->dlpi_name || !*info->dlpi_name;	/* (the only one unnamed) */
	const ElfW(Rela) **glob = NULL;
	unsigned char *code;
	size_t n = 0, nglob, total;
	struct dyn d;

	(void)size;
	(void)arg;
	for (size_t i = 0; i < nhooked; i++)
		if (hooked[i].base == info->dlpi_addr)
			return 0;
	/* (libkft defines the hooks, which makes it look instrumented; the
	 * program is asked of too: an image exec'd from a traced one, which
	 * is not instrumented, is not traced, nor are its library calls) */
	if (nhooked == MAX_OBJECTS || info->dlpi_addr == self_base() ||
	    (!(kft_rt.ctl->mode & KFT_MODE_LIBCALLS_ALL) &&
	     !instrumented(info->dlpi_addr, program ? "" : info->dlpi_name)))
		return 0;
	hooked[nhooked].base = info->dlpi_addr;
	hooked[nhooked].first = nslots;
	hooked[nhooked++].n = 0;
	if (!read_dynamic(info, &d))
		return 0;
	nglob = called_only(info, &d, &glob);
	total = d.njmprel + nglob;
	if (nslots + total > MAX_SLOTS || !(code = make_stubs(nslots, total))) {
		free(glob);
		return 0;
	}
	/* the PLT's slots, then those -fno-plt code calls through */
	for (size_t i = 0; i < total; i++) {
		const ElfW(Rela) *r = i < d.njmprel ? &d.jmprel[i] : glob[i - d.njmprel];
		const char *name = d.strtab + d.symtab[ELF64_R_SYM(r->r_info)].st_name;
		uintptr_t *slot = (uintptr_t *)(info->dlpi_addr + r->r_offset);
		uintptr_t orig = *slot, target = orig;
		bool relro;

		if ((i < d.njmprel && ELF64_R_TYPE(r->r_info) != R_X86_64_JUMP_SLOT) || !*name)
			continue;
		/* bound already (-z now), or bound as the dynamic linker would */
		if (!target || in_segment(info, target, PT_LOAD))
			target = (uintptr_t)dlsym(RTLD_DEFAULT, name);
		/* a program built without PIE that takes the function's address
		 * has its PLT entry stand for it (the symbol undefined, its
		 * value the entry): the function is the next definition, or
		 * the stub would jump to the PLT, which jumps to the stub */
		if (target && d.symtab[ELF64_R_SYM(r->r_info)].st_shndx == SHN_UNDEF &&
		    d.symtab[ELF64_R_SYM(r->r_info)].st_value &&
		    target == info->dlpi_addr + d.symtab[ELF64_R_SYM(r->r_info)].st_value)
			target = (uintptr_t)dlsym(RTLD_NEXT, name);
		if (!target || left_alone(name, target))
			continue;
		relro = in_segment(info, (uintptr_t)slot, PT_GNU_RELRO);
		/* the stub's entry first: a call may take the stub at once (with
		 * --libcalls=all, one func_of makes through libc's own slots) */
		slots[nslots + n] = (struct plt_slot){ .target = target,
						       .func = func_of(&lib, name, target),
						       .got = slot, .orig = orig, .relro = relro };
		if (!set_slot(slot, (uintptr_t)(code + 16 + n * STUB_SIZE), relro)) {
			slots[nslots + n].got = NULL;
			continue;
		}
		n++;
	}
	free(glob);
	nslots += total;	/* (the stubs of slots left alone stay unused) */
	hooked[nhooked - 1].n = total;
	if (lib.open)
		kft_elf_close(&lib.elf);
	return 0;
}

/* kft record -p leaves: every slot holds what it held before (a call in
 * a stub already goes on; one in flight still returns through kft) */
KFT_NOTRACE void kft_plt_unhook_all(void)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; slots && i < nslots; i++)
		if (slots[i].got && set_slot(slots[i].got, slots[i].orig, slots[i].relro))
			slots[i].got = NULL;
	pthread_mutex_unlock(&lock);
}

static KFT_NOTRACE int still_there(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	return info->dlpi_addr == *(uintptr_t *)arg;
}

/* After dlclose: an object gone has no slots to give back, and another
 * may come where it was */
KFT_NOTRACE void kft_plt_forget_closed(void)
{
	pthread_mutex_lock(&lock);
	asked_base = 0;
	for (size_t i = 0; i < nhooked;) {
		if (dl_iterate_phdr(still_there, &hooked[i].base)) {
			i++;
			continue;
		}
		for (size_t k = 0; k < hooked[i].n; k++)
			slots[hooked[i].first + k].got = NULL;
		hooked[i] = hooked[--nhooked];
	}
	pthread_mutex_unlock(&lock);
}

/* In a fork child: the lock may have been held by a thread it has not */
KFT_NOTRACE void kft_plt_forked(void)
{
	pthread_mutex_init(&lock, NULL);
}

/* At start and after dlopen: the slots of the objects not done yet. */
KFT_NOTRACE void kft_plt_hook_all(void)
{
	pthread_mutex_lock(&lock);
	if (!slots) {
		slots = mmap(NULL, MAX_SLOTS * sizeof(*slots), PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (slots == MAP_FAILED)
			slots = NULL;
	}
	if (slots)
		dl_iterate_phdr(hook_object, NULL);
	pthread_mutex_unlock(&lock);
}
