// SPDX-License-Identifier: GPL-2.0-only
/*
 * A thread is seized and interrupted (PTRACE_SEIZE, PTRACE_INTERRUPT):
 * it stops where it is, in a system call or not, with no signal the
 * program could see. A thread may start another while its siblings are
 * being stopped, so the task list is read again until a reading finds
 * none new: a stopped thread starts none.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

#include "../common/grow.h"
#include "stop-threads.h"

static bool held(const struct kft_stopped *s, pid_t tid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].tid == tid)
			return true;
	return false;
}

/* Stop thread tid (seized already) at our interrupt: true, or false if
 * it went away. A signal on its way is let through first. */
static bool wait_interrupted(pid_t tid)
{
	for (;;) {
		int status;
		pid_t got = waitpid(tid, &status, __WALL);

		if (got < 0 && errno == EINTR)
			continue;
		if (got != tid || WIFEXITED(status) || WIFSIGNALED(status))
			return false;
		if (status >> 16 == PTRACE_EVENT_STOP)
			return true;
		if (ptrace(PTRACE_CONT, tid, 0, (void *)(long)WSTOPSIG(status)))
			return false;
	}
}

/* Seize and stop tid into s: 1 if it is held, 0 if it has gone, -1. */
static int stop_one(pid_t tid, struct kft_stopped *s, struct kft_error *err)
{
	struct user_regs_struct regs;

	if (ptrace(PTRACE_SEIZE, tid, 0, 0))
		return errno == ESRCH ? 0
				      : kft_error_set(err, "thread %d: ptrace: %s", (int)tid,
						      strerror(errno));
	if (ptrace(PTRACE_INTERRUPT, tid, 0, 0) || !wait_interrupted(tid) ||
	    ptrace(PTRACE_GETREGS, tid, 0, &regs)) {
		ptrace(PTRACE_DETACH, tid, 0, 0);
		return 0;	/* (it ended meanwhile) */
	}
	if (kft_grow((void **)&s->v, s->n, &s->cap, sizeof(*s->v), 16)) {
		ptrace(PTRACE_DETACH, tid, 0, 0);
		return kft_error_set(err, "out of memory");
	}
	s->v[s->n].tid = tid;
	s->v[s->n++].pc = regs.rip;
	return 1;
}

int kft_threads_stop(pid_t pid, pid_t except, struct kft_stopped *s, struct kft_error *err)
{
	char path[64];
	bool more = true;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	while (more) {
		DIR *d = opendir(path);
		struct dirent *e;

		if (!d)
			return kft_error_set(err, "process %d: %s", (int)pid, strerror(errno));
		more = false;
		while ((e = readdir(d))) {
			pid_t tid = (pid_t)atoi(e->d_name);
			int got;

			if (tid <= 0 || tid == except || held(s, tid))
				continue;
			got = stop_one(tid, s, err);
			if (got < 0) {
				closedir(d);
				return -1;
			}
			more |= got > 0;
		}
		closedir(d);
	}
	return 0;
}

void kft_threads_release(struct kft_stopped *s)
{
	for (size_t i = 0; i < s->n; i++)
		ptrace(PTRACE_DETACH, s->v[i].tid, 0, 0);
	free(s->v);
	memset(s, 0, sizeof(*s));
}
