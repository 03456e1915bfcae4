/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading or writing a whole span of a file at an offset. */
#ifndef KFT_FILE_IO_H
#define KFT_FILE_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* len bytes of buf written to fd at off (out), or read from it (a file
 * that ends first is EIO): 0, or an errno. */
int kft_file_io(int fd, void *buf, size_t len, uint64_t off, bool out);

#endif
