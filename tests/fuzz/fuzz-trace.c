// SPDX-License-Identifier: GPL-2.0-only
/*
 * A trace directory, every file kind: the input is a list of files
 * (a name's length in one byte, the name, the data's length in four bytes
 * little-endian, the data; the last one may be cut short), written into a
 * directory that every view then reads (fuzz_read_trace).
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Names a trace directory may hold: no path, nothing hidden. */
static bool plain_name(const char *name)
{
	if (!name[0] || name[0] == '.')
		return false;
	for (const char *p = name; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_", *p))
			return false;
	return true;
}

static void unpack(const char *dir, const uint8_t *data, size_t size)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);

	if (dfd < 0)
		abort();
	while (size >= 1) {
		size_t nlen = data[0], len;
		char name[256];
		int fd;

		if (size < 1 + nlen + 4)
			break;
		memcpy(name, data + 1, nlen);
		name[nlen] = '\0';
		len = (size_t)data[1 + nlen] | (size_t)data[2 + nlen] << 8 |
		      (size_t)data[3 + nlen] << 16 | (size_t)data[4 + nlen] << 24;
		data += 5 + nlen;
		size -= 5 + nlen;
		if (len > size)
			len = size;
		if (plain_name(name) &&
		    (fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600)) >= 0) {
			if (write(fd, data, len) != (ssize_t)len)
				abort();
			close(fd);
		}
		data += len;
		size -= len;
	}
	close(dfd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *dir = fuzz_dir();

	unpack(dir, data, size);
	fuzz_read_trace(dir);
	return 0;
}
