/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How a text log's rows nest, found from times and caller names, as kd
 * did: a row goes under the newest call still open at its entry whose
 * function its caller names. Classic (kd 1.1): any thread's call, an
 * unfinished call open 9999999 usec. Otherwise the same thread's (or any
 * for an interrupt), a finished call open 1 usec longer (the log rounds
 * down), an unfinished one until a later row of its thread shows it
 * ended (nesting under an older call, or repeating its function and
 * caller as a sibling). Fed row by row; memory grows
 * with the calls open at once, never with the log.
 */
#ifndef KFT_TEXT_NEST_H
#define KFT_TEXT_NEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kft_nest_row {
	int64_t entry_ns;
	int64_t dur_ns;		/* -1: unfinished */
	int64_t unit_ns;	/* the log's rounding: a call may seem to begin
				 * this long after its caller ended */
	uint32_t func;		/* the row's function, by bare name */
	uint32_t caller;	/* the function its caller names, or KFT_NONE */
	int64_t tid;
	uint32_t coroutine;
	bool irq;
};

struct kft_text_nest {
	bool classic;
	struct kft_nest_open *open;
	size_t nopen, cap;
};

/*
 * Row number row (rows are fed in log order, numbered from 0): its parent
 * row (KFT_NONE for a root) and its depth. -1 when out of memory.
 */
int kft_text_nest_add(struct kft_text_nest *n, uint32_t row, const struct kft_nest_row *r,
		      uint32_t *parent, uint32_t *depth);
void kft_text_nest_free(struct kft_text_nest *n);

#endif
