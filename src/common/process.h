/* SPDX-License-Identifier: GPL-2.0-only */
/* Other processes, as /proc shows them. */
#ifndef KFT_PROCESS_H
#define KFT_PROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Whether process pid has ended: it is gone, or a zombie (it runs no more
 * code, and writes nothing more). */
bool kft_process_gone(pid_t pid);

/* Whether process pid runs and has a file of directory dir mapped (the
 * runtime maps the thread files it writes): a pid reused since by another
 * process has not. */
bool kft_process_maps_dir(pid_t pid, const char *dir);

/* Up to max of parent's children still running, into pids: how many
 * there are in all (more than max: the rest not listed). */
size_t kft_process_children(pid_t parent, pid_t *pids, size_t max);

#endif
