/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the fuzz targets share: the input as a file the readers can open
 * by name (they take paths), a sink for what the views print, and every
 * view of a trace directory.
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

/* An empty directory for a trace (the same one each time). */
const char *fuzz_dir(void);

/* Open the trace in dir, if it opens, and show it with every view; the
 * call trees streamed and built in memory must agree (KFT_FUZZ_AGREE=1:
 * abort when not). */
void fuzz_read_trace(const char *dir);

#endif
