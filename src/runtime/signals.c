// SPDX-License-Identifier: LGPL-2.1
/*
 * Signal handlers are user space's interrupt context. We stand between the
 * program and sigaction()/signal() and install a trampoline that counts
 * the nesting around the program's own handler; calls made inside carry
 * the signal flag (`filter noints`/`onlyints`, the log's "i" mark). What
 * the program reads back as the old action is its own handler, never ours.
 * A signal kft owns (SIGTRAP, once code is patched live; SIGURG, once
 * threads were held, hold-threads.c) keeps kft's handler; the program's
 * action is kept aside and taken for what is not kft's.
 */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "runtime.h"

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);

static struct sigaction user_action[NSIG];
static volatile sig_atomic_t wrapped[NSIG];
static volatile sig_atomic_t owned[NSIG];

static KFT_NOTRACE sigaction_fn real_sigaction(void)
{
	static sigaction_fn real;

	if (!real)
		real = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
	return real;
}

static KFT_NOTRACE void trampoline(int sig, siginfo_t *info, void *uctx)
{
	struct kft_tls *t = &kft_tls;
	int level = t->in_signal;
	const struct sigaction *act = &user_action[sig];

	if (level < KFT_MAX_SIGNAL_NEST) {
		t->signal_sp[level] = (uintptr_t)__builtin_frame_address(0);
		t->signal_ret[level] = (uintptr_t)__builtin_return_address(0);
	}
	t->in_signal = level + 1;
	if (act->sa_flags & SA_SIGINFO)
		act->sa_sigaction(sig, info, uctx);
	else
		act->sa_handler(sig);
	t->in_signal = level;
}

/* A program's handler is called by the trampoline: its caller is what
 * called the trampoline (the kernel's signal return code), not kft.
 * (The trampoline is far shorter than 512 bytes, and no traced code
 * follows it in libkft.) */
KFT_NOTRACE uint64_t kft_signal_caller(const struct kft_tls *t, uint64_t call_site)
{
	int level = t->in_signal;

	if (call_site - (uintptr_t)trampoline < 512 && level > 0 && level <= KFT_MAX_SIGNAL_NEST)
		return t->signal_ret[level - 1];
	return call_site;
}

static KFT_NOTRACE bool is_handler(const struct sigaction *act)
{
	if (act->sa_flags & SA_SIGINFO)
		return act->sa_sigaction != NULL;
	return act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN;
}

KFT_EXPORT KFT_NOTRACE int sigaction(int sig, const struct sigaction *act, struct sigaction *oldact)
{
	sigaction_fn real = real_sigaction();
	struct sigaction mine, old, prev_user;
	bool was_wrapped;
	int ret;

	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	if (sig <= 0 || sig >= NSIG || sig == SIGKILL || sig == SIGSTOP)
		return real(sig, act, oldact);
	if (owned[sig]) {
		old = user_action[sig];
		if (act)
			user_action[sig] = *act;
		if (oldact)
			*oldact = old;
		return 0;
	}
	was_wrapped = wrapped[sig];
	prev_user = user_action[sig];
	if (act && is_handler(act)) {
		user_action[sig] = *act;
		mine = *act;
		mine.sa_flags |= SA_SIGINFO;
		mine.sa_sigaction = trampoline;
		ret = real(sig, &mine, &old);
		if (ret) {
			user_action[sig] = prev_user;
			return ret;
		}
		wrapped[sig] = 1;
	} else {
		ret = real(sig, act, &old);
		if (ret)
			return ret;
		if (act)
			wrapped[sig] = 0;
	}
	if (oldact) {
		*oldact = old;
		if (was_wrapped && (old.sa_flags & SA_SIGINFO) && old.sa_sigaction == trampoline)
			*oldact = prev_user;
	}
	return 0;
}

KFT_EXPORT KFT_NOTRACE sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction act, old;

	memset(&act, 0, sizeof(act));
	act.sa_handler = handler;
	sigemptyset(&act.sa_mask);
	if (sig > 0 && sig < NSIG)
		sigaddset(&act.sa_mask, sig);
	act.sa_flags = SA_RESTART;	/* BSD semantics, as glibc's signal() */
	if (sigaction(sig, &act, &old))
		return SIG_ERR;
	return (old.sa_flags & SA_SIGINFO) ? (sighandler_t)(void *)old.sa_sigaction :
					      old.sa_handler;
}

KFT_NOTRACE int kft_signal_own(int sig, void (*handler)(int, siginfo_t *, void *))
{
	sigaction_fn real = real_sigaction();
	struct sigaction act, old;

	if (owned[sig])
		return 0;
	if (!real)
		return -1;
	memset(&act, 0, sizeof(act));
	act.sa_sigaction = handler;
	act.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&act.sa_mask);
	if (real(sig, &act, &old))
		return -1;
	if (!wrapped[sig])
		user_action[sig] = old;		/* else it holds the program's handler */
	wrapped[sig] = 0;
	owned[sig] = 1;
	return 0;
}

KFT_NOTRACE void kft_signal_pass(int sig, siginfo_t *info, void *uctx)
{
	const struct sigaction *act = &user_action[sig];
	struct sigaction dfl;

	if (is_handler(act)) {
		trampoline(sig, info, uctx);
		return;
	}
	if (act->sa_handler == SIG_IGN)
		return;
	/* the default action, as without kft: blocked while we run, the
	 * signal raised again is taken as soon as we return */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	owned[sig] = 0;
	real_sigaction()(sig, &dfl, NULL);
	raise(sig);
}
