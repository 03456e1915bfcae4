// SPDX-License-Identifier: LGPL-2.1
/* The public API of kft.h: the run state machine, driven by the program,
 * and its markers. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../include/kft.h"
#include "../format/control.h"
#include "runtime.h"
#include "../format/trace-files.h"

static int marks_fd = -1;	/* the trace's marks file, opened at the first marker */

static KFT_NOTRACE bool attached(void)
{
	if (!kft_rt.ready)
		kft_runtime_init();
	return kft_rt.ready == 1;
}

KFT_EXPORT KFT_NOTRACE int kft_start(void)
{
	if (!attached())
		return -1;
	return kft_control_start(kft_rt.ctl, KFT_HOW_USER, kft_now(), 0,
				 kft_rt.session, 0) ? 0 : -1;
}

KFT_EXPORT KFT_NOTRACE int kft_stop(void)
{
	if (!attached())
		return -1;
	return kft_control_stop(kft_rt.ctl, KFT_HOW_USER, kft_now(), 0,
				kft_rt.session, 0) ? 0 : -1;
}

KFT_EXPORT KFT_NOTRACE int kft_pause(void)
{
	if (!attached())
		return -1;
	kft_control_pause(kft_rt.ctl, true);
	return 0;
}

KFT_EXPORT KFT_NOTRACE int kft_resume(void)
{
	if (!attached())
		return -1;
	kft_control_pause(kft_rt.ctl, false);
	return 0;
}

KFT_EXPORT KFT_NOTRACE int kft_prime(void)
{
	if (!attached())
		return -1;
	return kft_control_prime(kft_rt.ctl) ? 0 : -1;
}

/* The marks file, opened once by whichever thread comes first. */
static KFT_NOTRACE int marks_file(void)
{
	int fd = __atomic_load_n(&marks_fd, __ATOMIC_ACQUIRE), none = -1;

	if (fd >= 0)
		return fd;
	fd = openat(kft_dir(), KFT_MARKS_FILE, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
		    0600);
	if (fd < 0)
		return -1;
	if (!__atomic_compare_exchange_n(&marks_fd, &none, fd, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		close(fd);
		fd = none;
	}
	return fd;
}

KFT_EXPORT KFT_NOTRACE int kft_printf(const char *fmt, ...)
{
	struct kft_tls *t = &kft_tls;
	struct kft_mark m;
	uint64_t st;
	va_list ap;
	int fd, n, saved = errno;

	if (!attached())
		return -1;
	st = __atomic_load_n(&kft_rt.ctl->state, __ATOMIC_ACQUIRE);
	if ((st & (KFT_STATE_TRIGGERED | KFT_STATE_COMPLETE | KFT_STATE_PAUSED)) !=
	    KFT_STATE_TRIGGERED)
		return 0;	/* not logging now: as trace_marker with tracing off */
	memset(&m, 0, sizeof(m));
	m.ns = kft_now();
	m.pid = (uint32_t)getpid();
	m.tid = t->hdr ? t->hdr->tid : (uint32_t)syscall(SYS_gettid);
	m.session = kft_rt.session;
	m.depth = t->hdr ? (uint32_t)t->hdr->depth : 0;
	m.in_signal = t->in_signal > 0;
	va_start(ap, fmt);
	n = vsnprintf(m.text, sizeof(m.text), fmt, ap);
	va_end(ap);
	m.len = (uint16_t)(n < 0 ? 0 : n >= (int)sizeof(m.text) ? sizeof(m.text) : (size_t)n);
	fd = marks_file();
	n = fd >= 0 && write(fd, &m, sizeof(m)) == (ssize_t)sizeof(m) ? 0 : -1;
	errno = saved;
	return n;
}

KFT_EXPORT KFT_NOTRACE int kft_mark(const char *name)
{
	return kft_printf("%s", name);
}
