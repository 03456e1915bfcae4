/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A call's saved arguments and return value (the trace's `args` file,
 * struct kft_argrec), found by the call they name, and shown as every
 * view shows them: "1, -2, "hello"" and "2".
 */
#ifndef KFT_CALL_ARGS_H
#define KFT_CALL_ARGS_H

#include <stddef.h>

#include "reader.h"

struct kft_call_args {
	const struct kft_argrec *args;	/* NULL: none saved */
	const struct kft_argrec *ret;	/* NULL: none saved */
};

/* Sort records as kft_call_args looks them up (reader.c does). */
void kft_args_sort(struct kft_argrec *v, size_t n);

/* c's saved arguments and return value: whether it has either. */
bool kft_call_args(const struct kft_trace *tr, const struct kft_call *c,
		   struct kft_call_args *out);

/* The room the texts below need at most. */
#define KFT_ARGS_TEXT_MAX 512

/* The arguments as a C call writes them, "1, 0x10, "a"", into buf
 * (empty when none were saved). */
const char *kft_args_text(const struct kft_call_args *a, char *buf, size_t size);
/* The return value, "2", into buf (empty when not saved). */
const char *kft_retval_text(const struct kft_call_args *a, char *buf, size_t size);
/* Value i of r (an argument, or 0 of a return value) alone, into buf. */
const char *kft_argrec_value(const struct kft_argrec *r, int i, char *buf, size_t size);

#endif
