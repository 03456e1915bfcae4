/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Starting a program to trace: finding it and the runtime library, and
 * running it with the runtime preloaded into a trace directory. Errors
 * come back as values.
 */
#ifndef KFT_RECORD_LAUNCH_H
#define KFT_RECORD_LAUNCH_H

#include <stddef.h>
#include <sys/types.h>

#include "../common/error.h"

/* The variables the runtime and the kernel backend read hold what they
 * may (the runtime cannot say that it ignored a value). 0, or -1 with err. */
int kft_launch_check_environment(struct kft_error *err);
/* prog as execvp would find it, into out: 0; or, with err, the status
 * a shell exits with (126: found but not to run, 127: not found). */
int kft_launch_find_program(const char *prog, char *out, size_t size, struct kft_error *err);
/* libkft.so: $KFT_LIBRARY, else ../lib beside this kft (the build tree
 * and an installed kft alike). */
int kft_launch_find_runtime(char *out, size_t size, struct kft_error *err);
/* kft ignores SIGINT and SIGQUIT while a program it launched runs, as
 * system() does; the program gets them as kft found them. */
void kft_launch_hold_signals(void);
void kft_launch_release_signals(void);
/* Fork and exec prog with argv; runtime NULL: no libkft; gate, a pipe:
 * the child waits for kft_launch_go on it before exec (the caller may
 * have things to set up first). The child's pid, or -1. */
pid_t kft_launch(const char *prog, char **argv, const char *runtime, const char *dir,
		 const int *gate, struct kft_error *err);
/* Let the child at the gate's end fd go: 0, or -1 if it is gone. */
int kft_launch_go(int fd);

#endif
