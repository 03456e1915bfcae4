// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tempfile.h"

int kft_temp_file(struct kft_error *err)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	/* file systems without O_TMPFILE: a name, removed at once */
	if (snprintf(path, sizeof(path), "%s/kft-XXXXXX", dir) >= (int)sizeof(path)) {
		kft_error_set(err, "TMPDIR '%s': too long a path", dir);
		return -1;
	}
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		kft_error_set(err, "a temporary file in %s: %s", dir, strerror(errno));
		return -1;
	}
	unlink(path);
	return fd;
}
