/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A trace's calls as the rows a KFT log shows them (times in usec, bare
 * function and caller names, pid labels), so that kd 1.1's nesting and
 * arithmetic (--classic) read a trace as they read a log: one call at a
 * time, as often as asked.
 */
#ifndef KFT_CLASSIC_ROWS_H
#define KFT_CLASSIC_ROWS_H

#include "../format/reader.h"
#include "../symbols/symbolizer.h"
#include "spooltree.h"

struct kft_classic_rows;

/* The rows come after the source's first rewind. */
struct kft_classic_rows *kft_classic_rows_open(const struct kft_trace *tr,
					       struct kft_symbolizer *sz, struct kft_error *err);
struct kft_text_source kft_classic_rows_source(struct kft_classic_rows *cr);
void kft_classic_rows_close(struct kft_classic_rows *cr);

#endif
