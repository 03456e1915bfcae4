// SPDX-License-Identifier: LGPL-2.1
/*
 * The compiler's entry points into kft. -finstrument-functions calls
 * __cyg_profile_func_enter/exit with the function and its call site. The
 * guard keeps us from tracing ourselves (a hook that fires inside a hook,
 * say from a signal handler, is ignored) and errno is never touched on
 * the common path; the rare set-up path saves it.
 */
#include <errno.h>

#include "runtime.h"

struct kft_runtime kft_rt;
__thread struct kft_tls kft_tls __attribute__((tls_model("initial-exec")));

/* The first event of a thread (or of the process): set up, keep errno. */
static KFT_NOTRACE __attribute__((noinline)) int slow_setup(struct kft_tls *t)
{
	int saved = errno;
	int ret = -1;

	if (!kft_rt.ready)
		kft_runtime_init();
	if (kft_rt.ready > 0 && !kft_thread_setup(t))
		ret = 0;
	else
		t->dead = 1;	/* no trace for this thread: stop trying */
	errno = saved;
	return ret;
}

static inline KFT_NOTRACE bool enter_hook(struct kft_tls *t)
{
	if (unlikely(t->busy || t->dead))
		return false;
	t->busy = 1;
	if (unlikely(!t->hdr) && slow_setup(t)) {
		t->busy = 0;
		return false;
	}
	return true;
}

KFT_EXPORT KFT_NOTRACE void __cyg_profile_func_enter(void *fn, void *call_site)
{
	struct kft_tls *t = &kft_tls;

	if (!enter_hook(t))
		return;
	kft_event_entry(t, (uintptr_t)fn, (uintptr_t)call_site,
			(uintptr_t)__builtin_frame_address(0));
	t->busy = 0;
}

KFT_EXPORT KFT_NOTRACE void __cyg_profile_func_exit(void *fn, void *call_site)
{
	struct kft_tls *t = &kft_tls;

	(void)call_site;
	if (!enter_hook(t))
		return;
	kft_event_exit(t, (uintptr_t)fn, (uintptr_t)__builtin_frame_address(0));
	t->busy = 0;
}
