// SPDX-License-Identifier: GPL-2.0-only
/*
 * Calling a function inside another running process, as a debugger's
 * `call` does: kft record -p uses it to have the process dlopen libkft
 * and join a trace. Only x86-64.
 *
 * The process's main thread is seized and stopped (its other threads run
 * on); a stop inside a system call is waited for, a little, since there
 * the thread holds no lock of the C library's. Its registers are saved;
 * a call is made by pointing the instruction pointer at the function,
 * with the arguments in registers, on the stack well below the thread's
 * own (past the red zone), and a return address of 0: the function
 * returns into a fault, which stops the thread again for us to read the
 * result. Then the saved registers go back (an interrupted system call
 * restarts as the kernel arranged), and the thread is let go.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/error.h"
#include "../common/mono-clock.h"
#include "inject.h"

#define BELOW_STACK 8192	/* past the red zone and whatever the thread left there */
#define CALL_TIMEOUT_MS 10000
#define SYSCALL_TRIES 200	/* stops tried for one inside a system call */

/* The next stop of the seized thread; false (in->err says why) if it
 * went away. */
static bool wait_stop(struct kft_inject *in, int *status)
{
	for (;;) {
		pid_t got = waitpid(in->pid, status, __WALL);

		if (got == in->pid)
			break;
		if (got < 0 && errno != EINTR) {
			kft_error_set(&in->err, "process %d: waitpid: %s", (int)in->pid,
				      strerror(errno));
			return false;
		}
	}
	if (WIFEXITED(*status) || WIFSIGNALED(*status)) {
		kft_error_set(&in->err, "process %d ended while kft was attaching", (int)in->pid);
		in->gone = true;
		return false;
	}
	return true;
}

/* Stopped by our interrupt, in a system call if it can be had. */
static int stop_in_syscall(struct kft_inject *in)
{
	int status;

	for (int tries = 0;; tries++) {
		if (ptrace(PTRACE_INTERRUPT, in->pid, 0, 0))
			return kft_error_set(&in->err, "process %d: ptrace(PTRACE_INTERRUPT): %s",
					     (int)in->pid, strerror(errno));
		for (;;) {
			if (!wait_stop(in, &status))
				return -1;
			if (status >> 16 == PTRACE_EVENT_STOP)
				break;
			/* a signal for it on the way: let it have it */
			if (ptrace(PTRACE_CONT, in->pid, 0, (void *)(long)WSTOPSIG(status)))
				return kft_error_set(&in->err,
						     "process %d: ptrace(PTRACE_CONT): %s",
						     (int)in->pid, strerror(errno));
		}
		if (ptrace(PTRACE_GETREGS, in->pid, 0, &in->saved))
			return kft_error_set(&in->err, "process %d: ptrace(PTRACE_GETREGS): %s",
					     (int)in->pid, strerror(errno));
		if ((long)in->saved.orig_rax >= 0 || tries == SYSCALL_TRIES)
			return 0;
		if (ptrace(PTRACE_CONT, in->pid, 0, 0))
			return kft_error_set(&in->err, "process %d: ptrace(PTRACE_CONT): %s",
					     (int)in->pid, strerror(errno));
		kft_nap_ms(1);
	}
}

int kft_inject_begin(struct kft_inject *in, pid_t pid)
{
	memset(in, 0, sizeof(*in));
	in->pid = pid;
	if (ptrace(PTRACE_SEIZE, pid, 0, 0)) {
		int e = errno;

		if (e == ESRCH)
			return kft_error_set(&in->err, "no process %d", (int)pid);
		return kft_error_set(&in->err,
				     "process %d: ptrace: %s (only the process's owner, or root, "
				     "may attach to it, and kernel.yama.ptrace_scope may allow "
				     "only a parent or root: see kft-record(1))",
				     (int)pid, strerror(e));
	}
	in->seized = true;
	if (stop_in_syscall(in))
		return -1;
	in->stopped = true;
	in->top = (in->saved.rsp - BELOW_STACK) & ~(uint64_t)15;
	return 0;
}

static int write_memory(struct kft_inject *in, uint64_t at, const void *data, size_t len)
{
	struct iovec local = { (void *)data, len };
	struct iovec remote = { (void *)(uintptr_t)at, len };

	if (process_vm_writev(in->pid, &local, 1, &remote, 1, 0) != (ssize_t)len)
		return kft_error_set(&in->err, "process %d: writing its memory: %s",
				     (int)in->pid, strerror(errno));
	return 0;
}

int kft_inject_string(struct kft_inject *in, const char *s, uint64_t *at)
{
	size_t len = strlen(s) + 1;

	in->top = (in->top - len) & ~(uint64_t)15;
	*at = in->top;
	return write_memory(in, in->top, s, len);
}

int kft_inject_call(struct kft_inject *in, uint64_t fn, uint64_t a0, uint64_t a1, uint64_t *ret)
{
	struct user_regs_struct regs = in->saved;
	uint64_t zero = 0;
	int status, waited = 0;

	/* at the function's first instruction, rsp + 8 is 16-byte aligned */
	regs.rsp = ((in->top - 256) & ~(uint64_t)15) - 8;
	if (write_memory(in, regs.rsp, &zero, sizeof(zero)))
		return -1;
	regs.rip = fn;
	regs.rdi = a0;
	regs.rsi = a1;
	regs.rax = 0;
	regs.orig_rax = (unsigned long long)-1;	/* no system call to restart under it */
	if (ptrace(PTRACE_SETREGS, in->pid, 0, &regs) || ptrace(PTRACE_CONT, in->pid, 0, 0))
		return kft_error_set(&in->err, "process %d: ptrace: %s",
				     (int)in->pid, strerror(errno));
	for (;;) {
		pid_t got = waitpid(in->pid, &status, __WALL | WNOHANG);

		if (got < 0 && errno != EINTR)
			return kft_error_set(&in->err, "process %d: waitpid: %s",
					     (int)in->pid, strerror(errno));
		if (got != in->pid) {
			if (++waited > CALL_TIMEOUT_MS) {
				/* taken back: what the call holds stays held */
				if (!ptrace(PTRACE_INTERRUPT, in->pid, 0, 0))
					wait_stop(in, &status);
				return kft_error_set(&in->err,
						     "process %d: the call kft made in it did "
						     "not return in %d s (it was stopped inside "
						     "the C library's locks?); it was taken back, "
						     "and the program may hang",
						     (int)in->pid, CALL_TIMEOUT_MS / 1000);
			}
			kft_nap_ms(1);
			continue;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			in->gone = true;
			return kft_error_set(&in->err, "process %d ended while kft was attaching",
					     (int)in->pid);
		}
		if (ptrace(PTRACE_GETREGS, in->pid, 0, &regs))
			return kft_error_set(&in->err, "process %d: ptrace(PTRACE_GETREGS): %s",
					     (int)in->pid, strerror(errno));
		if (WSTOPSIG(status) == SIGSEGV && regs.rip == 0)
			break;		/* returned */
		if (WSTOPSIG(status) == SIGSEGV || WSTOPSIG(status) == SIGBUS ||
		    WSTOPSIG(status) == SIGILL)
			return kft_error_set(&in->err,
					     "process %d: the call kft made in it faulted "
					     "(signal %d at %#llx); its registers are put back",
					     (int)in->pid,
					     WSTOPSIG(status), (unsigned long long)regs.rip);
		/* another signal while it runs our call: it gets it after */
		if (ptrace(PTRACE_CONT, in->pid, 0,
			   status >> 16 ? 0 : (void *)(long)WSTOPSIG(status)))
			return kft_error_set(&in->err, "process %d: ptrace(PTRACE_CONT): %s",
					     (int)in->pid, strerror(errno));
	}
	*ret = regs.rax;
	return 0;
}

int kft_inject_end(struct kft_inject *in)
{
	int ret = 0;

	if (!in->seized || in->gone)
		return 0;
	if (in->stopped && ptrace(PTRACE_SETREGS, in->pid, 0, &in->saved))
		ret = kft_error_set(&in->err, "process %d: its registers could not be put back: %s",
				    (int)in->pid, strerror(errno));
	ptrace(PTRACE_DETACH, in->pid, 0, 0);
	return ret;
}
