// SPDX-License-Identifier: LGPL-2.1
/*
 * Coroutines (ucontext). A program that switches stacks with swapcontext
 * leaves calls open on one stack and makes calls on another: in one log
 * they would interleave, as if one stack's calls nested in the other's.
 * So each stack gets a log of its own, a file of the same thread marked
 * with a coroutine number, whose calls nest among themselves. The
 * thread's log state (struct kft_tls) changes at each switch, and it is
 * the side that resumes that puts its own back:
 *  - swapcontext keeps the leaving stack's state in its own frame, on
 *    that stack, and puts it back when it returns, i.e. when resumed;
 *  - a context made by makecontext starts in kft_coroutine_start, which
 *    takes the log of a coroutine that has ended, or a new one, and
 *    gives it back for the next when the coroutine's function returns;
 *  - setcontext to one of those leaves the current stack for good: its
 *    open calls end there, as after a longjmp;
 *  - a context saved by getcontext resumes in the program, where nobody
 *    can put a state back: a switch to it is taken for a longjmp on the
 *    current stack (jumps.c).
 * A switch copies the state twice; the hooks themselves are untouched.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "runtime.h"

#define MAX_ARGS 16	/* arguments of makecontext's function we pass on */

typedef void (*start_fn)(long, long, long, long, long, long, long, long,
			 long, long, long, long, long, long, long, long);
typedef int (*swap_fn)(ucontext_t *, const ucontext_t *);
typedef int (*set_fn)(const ucontext_t *);
typedef void (*make_fn)(ucontext_t *, void (*)(void), int, ...);

/* What makecontext was asked to run: kept at the top of the new stack,
 * above what makecontext itself is given. */
struct start {
	start_fn func;
	long args[MAX_ARGS];
	uintptr_t stack_top;
};

/* The log of a coroutine that ended, kept for the next one. */
struct idle_log {
	struct kft_tls log;
	struct idle_log *next;
};

static __thread struct idle_log *idle_logs __attribute__((tls_model("initial-exec")));
static __thread uint32_t coroutines __attribute__((tls_model("initial-exec")));

/* A stack's state before its log is made */
static const struct kft_tls blank;

/* libkft's code: a context that resumes there is one of ours */
static uintptr_t text_lo, text_hi;

static void kft_coroutine_start(struct start *s);

static KFT_NOTRACE int find_text(struct dl_phdr_info *info, size_t size, void *arg)
{
	uintptr_t here = (uintptr_t)kft_coroutine_start;

	(void)size;
	(void)arg;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && here >= lo && here < lo + ph->p_memsz) {
			text_hi = lo + ph->p_memsz;
			__atomic_store_n(&text_lo, lo, __ATOMIC_RELEASE);
			return 1;
		}
	}
	return 0;
}

/* Whether ucp resumes in kft's code: in a swapcontext of ours or at a
 * coroutine's start, where the state is put back. */
static KFT_NOTRACE bool resumes_in_kft(const ucontext_t *ucp)
{
	uintptr_t ip = (uintptr_t)ucp->uc_mcontext.gregs[REG_RIP];

	if (!__atomic_load_n(&text_lo, __ATOMIC_ACQUIRE))
		dl_iterate_phdr(find_text, NULL);
	return ip >= text_lo && ip < text_hi;
}

/* Put state s in place of the thread's; the guard and the thread's fate
 * stay as they are. */
static KFT_NOTRACE void install(struct kft_tls *t, const struct kft_tls *s)
{
	int dead = t->dead;

	*t = *s;
	t->busy = 1;
	t->dead = dead;
}

/* This stack is left for good: its open calls end now, and its log is
 * kept for the next coroutine (mapped memory: no allocator of the
 * program's is called from here). */
static KFT_NOTRACE void retire(struct kft_tls *t)
{
	struct idle_log *l;

	if (!t->hdr)
		return;
	kft_unwind_to(t, UINTPTR_MAX);
	l = mmap(NULL, sizeof(*l), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (l == MAP_FAILED) {
		kft_thread_finish(t);
	} else {
		l->log = *t;
		l->next = idle_logs;
		idle_logs = l;
	}
	install(t, &blank);
}

/* A coroutine starts on a new stack, which ends at top. */
static KFT_NOTRACE void take_log(struct kft_tls *t, uintptr_t top)
{
	struct idle_log *l = idle_logs;

	if (l) {
		idle_logs = l->next;
		install(t, &l->log);
		munmap(l, sizeof(*l));
	} else {
		install(t, &blank);
		if (t->dead || kft_rt.ready != 1 || kft_thread_setup(t))
			return;
		t->hdr->coroutine = ++coroutines;
	}
	kft_thread_set_stack(t, top);
}

static KFT_NOTRACE void kft_coroutine_start(struct start *s)
{
	struct kft_tls *t = &kft_tls;
	const long *a = s->args;

	t->busy = 1;
	take_log(t, s->stack_top);
	t->busy = 0;
	s->func(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7],
		a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15]);
	t->busy = 1;
	retire(t);
	t->busy = 0;
	/* on to uc_link, whose side puts its state back */
}

KFT_EXPORT KFT_NOTRACE void makecontext(ucontext_t *ucp, void (*func)(void), int argc, ...)
{
	static make_fn real;
	uintptr_t top = (uintptr_t)ucp->uc_stack.ss_sp + ucp->uc_stack.ss_size;
	struct start *s = (struct start *)((top - sizeof(*s)) & ~(uintptr_t)15);
	size_t size = ucp->uc_stack.ss_size;
	long a[MAX_ARGS] = { 0 };
	va_list ap;

	if (!real)
		real = (make_fn)dlsym(RTLD_NEXT, "makecontext");
	va_start(ap, argc);
	for (int i = 0; i < argc && i < MAX_ARGS; i++)
		a[i] = va_arg(ap, long);	/* glibc passes them as registers */
	va_end(ap);
	if (argc > MAX_ARGS || size < 16 * sizeof(*s)) {
		/* not ours to follow: the stack shares the current log */
		real(ucp, func, argc, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7],
		     a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15]);
		return;
	}
	s->func = (start_fn)(void *)func;
	memcpy(s->args, a, sizeof(a));
	s->stack_top = top;
	ucp->uc_stack.ss_size = (uintptr_t)s - (uintptr_t)ucp->uc_stack.ss_sp;
	real(ucp, (void (*)(void))(void *)kft_coroutine_start, 1, s);
	ucp->uc_stack.ss_size = size;
}

KFT_EXPORT KFT_NOTRACE int swapcontext(ucontext_t *oucp, const ucontext_t *ucp)
{
	static swap_fn real;
	struct kft_tls *t = &kft_tls, mine;
	bool ours = resumes_in_kft(ucp);
	int busy = t->busy, ret;

	if (!real)
		real = (swap_fn)dlsym(RTLD_NEXT, "swapcontext");
	if (ours) {
		mine = *t;	/* the other side installs its own */
	} else {
		kft_jump_to((uintptr_t)ucp->uc_mcontext.gregs[REG_RSP]);
	}
	ret = real(oucp, ucp);
	if (ours) {
		t->busy = 1;
		install(t, &mine);
		/* a fork child resumes a stack set aside before the fork */
		if (t->hdr && t->hdr->session != kft_rt.session)
			kft_thread_setup_forked(t);
		t->busy = busy;
	}
	return ret;
}

KFT_EXPORT KFT_NOTRACE int setcontext(const ucontext_t *ucp)
{
	static set_fn real;
	struct kft_tls *t = &kft_tls;

	if (!real)
		real = (set_fn)dlsym(RTLD_NEXT, "setcontext");
	if (resumes_in_kft(ucp)) {
		if (!t->busy) {
			t->busy = 1;
			retire(t);
			t->busy = 0;
		}
	} else {
		kft_jump_to((uintptr_t)ucp->uc_mcontext.gregs[REG_RSP]);
	}
	return real(ucp);
}

/* The thread ends: so do the logs its ended coroutines left. */
KFT_NOTRACE void kft_fibers_thread_exit(void)
{
	struct idle_log *l;

	while ((l = idle_logs)) {
		idle_logs = l->next;
		kft_thread_finish(&l->log);
		munmap(l, sizeof(*l));
	}
}

/* In a fork child: the ended coroutines' logs are the parent's files. */
KFT_NOTRACE void kft_fibers_forked(void)
{
	struct idle_log *l;

	while ((l = idle_logs)) {
		idle_logs = l->next;
		kft_thread_unmap(&l->log);
		munmap(l, sizeof(*l));
	}
}
