/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the fuzz targets share: the input as a file the readers can open
 * by name (they take paths), and a sink for what the views print.
 */
#ifndef KFT_FUZZ_H
#define KFT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* data as the whole of a file; its name, valid until the next call. */
const char *fuzz_file(const uint8_t *data, size_t size);

/* Where the views write (/dev/null, opened once). */
FILE *fuzz_sink(void);

#endif
