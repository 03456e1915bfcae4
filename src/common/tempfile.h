/* SPDX-License-Identifier: GPL-2.0-only */
/* Scratch files for readers that spill to disk instead of memory. */
#ifndef KFT_TEMPFILE_H
#define KFT_TEMPFILE_H

#include "error.h"

/*
 * A new file with no name, gone when closed, in $TMPDIR (or /tmp): its
 * descriptor, or -1 with err set.
 */
int kft_temp_file(struct kft_error *err);

#endif
