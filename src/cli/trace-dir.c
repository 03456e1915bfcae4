// SPDX-License-Identifier: GPL-2.0-only
/* Laying out a trace directory: info, config, control. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../format/control.h"
#include "cli.h"

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Make dir, or empty it of an older trace (and of nothing else). */
int prepare_dir(const char *dir)
{
	DIR *d;
	struct dirent *de;

	if (mkdir(dir, 0700) && errno != EEXIST)
		return fail("%s: %s", dir, strerror(errno));
	d = opendir(dir);
	if (!d)
		return fail("%s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		const char *n = de->d_name;

		if (!strcmp(n, "info") || !strcmp(n, "config") || !strcmp(n, "control") ||
		    !strcmp(n, "user-config") ||
		    !strcmp(n, "kallsyms") || !strncmp(n, "maps-", 5) || !strncmp(n, "thread-", 7))
			unlinkat(dirfd(d), n, 0);
	}
	closedir(d);
	return 0;
}

int write_file(const char *dir, const char *name, const void *data, size_t len)
{
	char path[PATH_MAX];
	int fd;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return fail("%s: %s", path, strerror(errno));
	ok = write(fd, data, len) == (ssize_t)len;
	if (close(fd) || !ok)
		return fail("%s: write failed", path);
	return 0;
}

int write_info(const char *dir, int argc, char **argv, const char *status)
{
	char buf[8192];
	size_t n = 0;

	n += (size_t)snprintf(buf + n, sizeof(buf) - n,
			      "kft-version = %s\nformat = %d\nclock = monotonic\ncommand =",
			      KFT_VERSION, KFT_FORMAT_VERSION);
	for (int i = 0; i < argc && n < sizeof(buf) - 256; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " %s", argv[i]);
	snprintf(buf + n, sizeof(buf) - n, "\n%s", status);
	return write_file(dir, "info", buf, strlen(buf));
}

int write_trace_files(const char *dir, const struct kft_config *cfg, bool primed,
			     bool compensate)
{
	struct kft_control ctl;
	char *text = kft_config_format(cfg);
	int ret;

	if (!text)
		return fail("out of memory");
	ret = write_file(dir, "config", text, strlen(text));
	free(text);
	if (ret)
		return ret;
	kft_control_init(&ctl, now_ns(),
			 KFT_MODE_TIMED | (cfg->autorepeat ? KFT_MODE_AUTOREPEAT : 0) |
				 (cfg->overwrite ? KFT_MODE_OVERWRITE : 0) |
				 (compensate ? KFT_MODE_COMPENSATE : 0),
			 primed);
	return write_file(dir, "control", &ctl, sizeof(ctl));
}
