/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A thread's calls in the order they were entered, in linear time.
 * Records are written when calls end (post-order); with each record's
 * depth, the calls it encloses are the pending ones deeper than it, so a
 * stack of pending subtrees turns post-order into entry order.
 */
#ifndef KFT_ENTRY_ORDER_H
#define KFT_ENTRY_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "reader.h"

/*
 * Fill order[] (room for nrecs + nframes) with indices in entry order: i
 * < nrecs is the i-th record from the oldest, nrecs + f is open frame f
 * (logged frames only). Returns how many, or -1 when the thread holds
 * stack-watch rows or out of memory (sort those by time instead).
 */
long kft_entry_order(const struct kft_thread_file *th, uint32_t *order);

#endif
