/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A call's saved arguments and return value (the threads' .args files:
 * struct kft_argrec_head records), found by the call they name, and
 * shown as every view shows them: "1, -2, "hello"" and "2".
 */
#ifndef KFT_CALL_ARGS_H
#define KFT_CALL_ARGS_H

#include <stddef.h>

#include "enum-defs.h"
#include "reader.h"

/* One call's saved arguments, or its return value, as the reader finds
 * them: the call, and the values as the file has them (in
 * tr->args_data; a version 3 record gives one of each). */
struct kft_argrec {
	uint64_t entry_ns, func, sp;
	uint32_t tid, session;
	uint8_t kind;		/* KFT_ARGREC_ARGS or KFT_ARGREC_RETVAL */
	uint8_t nvals;
	const unsigned char *vals;	/* nvals struct kft_argval, each with its text */
	const struct kft_enum_defs *enums;	/* the trace's enums file, or NULL */
};

/* The records of a thread's .args file (data, end bytes from
 * KFT_ARGS_OFF on; hdr: its header), checked and added to *v (n of cap):
 * 0 (a last record cut short is dropped), 1 when one is damaged (those
 * before it are kept), -1 out of memory. data must stay as long as they
 * do. */
int kft_args_index(const struct kft_args_hdr *hdr, const unsigned char *data, size_t end,
		   struct kft_argrec **v, size_t *n, size_t *cap);
/* Sort records as kft_call_args looks them up (reader.c does). */
void kft_args_sort(struct kft_argrec *v, size_t n);

struct kft_call_args {
	const struct kft_argrec *args;	/* NULL: none saved */
	const struct kft_argrec *ret;	/* NULL: none saved */
	/* where they are, when read from a version 3 file (their values are
	 * good till the next kft_call_args on the trace) */
	struct kft_argrec own[2];
};

/* c's saved arguments and return value: whether it has either. Calls
 * asked for in their entry order (each thread's) are found by reading
 * on (args-file.h). */
bool kft_call_args(const struct kft_trace *tr, const struct kft_call *c,
		   struct kft_call_args *out);

/* The value of r in slot (KFT_ARGVAL_*, config.h's KFT_ARGSLOT_*): into
 * *val, with its text (a string's, str_len bytes) if text is not NULL;
 * false if r has none there. */
bool kft_argrec_get(const struct kft_argrec *r, int slot, struct kft_argval *val,
		    const char **text);

/* The room the texts below need at most. */
#define KFT_ARGS_TEXT_MAX 1024

/* The value in slot alone, as its format says, into buf (empty: none). */
const char *kft_argrec_value(const struct kft_argrec *r, int slot, char *buf, size_t size);
/* The arguments as a C call writes them, "1, 0x10, "a"", into buf
 * (empty when none were saved). */
const char *kft_args_text(const struct kft_call_args *a, char *buf, size_t size);
/* Each saved value by its name in a spec ("arg1", "fparg1", "retval"),
 * arguments in their order, then the return value if with_ret: how many
 * (at most max). */
struct kft_named_value {
	char name[16];
	char text[KFT_ARGS_TEXT_MAX];
};
int kft_call_args_named(const struct kft_call_args *a, bool with_ret, struct kft_named_value *out,
			int max);
/* The return value, "2", into buf (empty when not saved). */
const char *kft_retval_text(const struct kft_call_args *a, char *buf, size_t size);

#endif
