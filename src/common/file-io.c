// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <unistd.h>

#include "file-io.h"

int kft_file_io(int fd, void *buf, size_t len, uint64_t off, bool out)
{
	char *p = buf;

	while (len) {
		ssize_t k = out ? pwrite(fd, p, len, (off_t)off) : pread(fd, p, len, (off_t)off);

		if (k <= 0) {
			if (k < 0 && errno == EINTR)
				continue;
			return k < 0 ? errno : EIO;
		}
		p += k;
		len -= (size_t)k;
		off += (uint64_t)k;
	}
	return 0;
}
