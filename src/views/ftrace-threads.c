// SPDX-License-Identifier: GPL-2.0-only
/*
 * The calls as every ftrace layout walks them (ftrace.h's by_thread):
 * thread after thread, each in time order, a group of thread files at a
 * time.
 */
#include "ftrace.h"

int kft_ftrace_next_call(struct by_thread *bt, struct kft_call *c)
{
	for (;;) {
		if (bt->cs && kft_calls_next(bt->cs, c))
			return 1;
		kft_calls_close(bt->cs);
		bt->cs = NULL;
		if (bt->g == bt->ngroups)
			return 0;
		bt->cs = (bt->inherited ? kft_calls_open_trees : kft_calls_open)(
			bt->tr, bt->order + bt->groups[bt->g],
			bt->groups[bt->g + 1] - bt->groups[bt->g], bt->err);
		bt->g++;
		if (!bt->cs) {
			bt->failed = true;
			return 0;
		}
	}
}
