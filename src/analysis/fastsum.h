/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-function totals from a kft trace in one pass (see fastsum.c). */
#ifndef KFT_FASTSUM_H
#define KFT_FASTSUM_H

#include "funcstats.h"

/* The columns it can fill: all but the percentiles. */
#define KFT_FASTSUM_COLUMNS "FctarslmnuNXDU"

/* Fills fs, and t with the functions only (no calls). */
int kft_funcstats_from_trace(struct kft_funcstats *fs, struct kft_calltree *t,
			     const struct kft_trace *tr, struct kft_symbolizer *sz,
			     struct kft_error *err);

#endif
