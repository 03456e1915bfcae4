/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * New thread files made ahead, while the program runs: on a file system
 * such as ext4, creating a file and giving it its first pages takes a few
 * hundred microseconds, which a program starting many short processes or
 * threads would pay for each, inside its own time. `kft record` keeps a
 * few ready (spare-N, each the size and layout of a new thread file, its
 * first pages written); a new thread takes one by renaming it
 * (runtime/thread.c), and makes its own when none is ready.
 */
#ifndef KFT_SPARES_H
#define KFT_SPARES_H

struct kft_spares;

/* Start making spares in the trace directory dir; NULL if it cannot (the
 * threads then make their own files). */
struct kft_spares *kft_spares_start(const char *dir);

/* Stop, and remove the spares no thread took. */
void kft_spares_stop(struct kft_spares *s);

#endif
