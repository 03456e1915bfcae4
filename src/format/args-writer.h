/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writing a whole .args file at once (version 3), for sources that are
 * not the runtime (the kernel's kprobe events): one record a call, in
 * the order given, which must be the calls' entry order.
 */
#ifndef KFT_ARGS_WRITER_H
#define KFT_ARGS_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "../common/error.h"
#include "trace-format.h"

/* Values as a record holds them: each a struct kft_argval, its text
 * after it padded to 8 bytes. */
struct kft_argvals {
	const unsigned char *data;	/* NULL: none */
	size_t len;
	uint8_t n;
};

struct kft_args_call {
	uint64_t entry_ns, func, sp;	/* as the call's own record has them */
	struct kft_argvals ret;		/* the return value, first in the record */
	struct kft_argvals args;
};

/* Write dir/thread-<session>-<tid>-0.args. */
int kft_args_write(const char *dir, uint32_t session, uint32_t tid,
		   const struct kft_args_call *calls, size_t n, struct kft_error *err);

#endif
