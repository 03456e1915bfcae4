/* SPDX-License-Identifier: GPL-2.0-only */
/* Calls made inside another running process through ptrace (inject.c). */
#ifndef KFT_INJECT_H
#define KFT_INJECT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

#include "../common/error.h"

struct kft_inject {
	pid_t pid;
	bool seized, stopped, gone;
	struct user_regs_struct saved;	/* the thread's own, put back at the end */
	uint64_t top;			/* below it, our strings and frames */
	struct kft_error err;		/* why the last step failed */
};

/* Seize process pid and stop its main thread (in a system call if it
 * can be had): 0, or -1 with in->err set. kft_inject_end() after it
 * whatever came of it. The others return the same way. */
int kft_inject_begin(struct kft_inject *in, pid_t pid);
/* s copied into the process, *at its address there. */
int kft_inject_string(struct kft_inject *in, const char *s, uint64_t *at);
/* fn(a0, a1) called in the stopped thread; *ret what it returned. */
int kft_inject_call(struct kft_inject *in, uint64_t fn, uint64_t a0, uint64_t a1, uint64_t *ret);
/* The thread's registers back, and the process let go: 0, or -1 with
 * in->err set when the registers could not be put back. */
int kft_inject_end(struct kft_inject *in);

#endif
