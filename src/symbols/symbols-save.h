/* SPDX-License-Identifier: GPL-2.0-only */
/* Saving a trace's symbols file (its format: saved-symbols.h). */
#ifndef KFT_SYMBOLS_SAVE_H
#define KFT_SYMBOLS_SAVE_H

#include "../common/error.h"

struct kft_trace;
struct kft_symbolizer;

/* Write dir/symbols for trace tr, opened from dir, naming through sz (a
 * symbolizer of the files on disk: kft_symbolizer_new_from_disk);
 * replaces a symbols file there. */
int kft_symbols_save(const char *dir, const struct kft_trace *tr, struct kft_symbolizer *sz,
		     struct kft_error *err);

#endif
