// SPDX-License-Identifier: LGPL-2.1
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../common/error.h"
#include "patch-plan.h"
#include "trace-files.h"

/* Past a run of one or more digits at s, or NULL if none. */
static const char *digits(const char *s)
{
	if (*s < '0' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9')
		s++;
	return s;
}

/* name is prefix and a number */
static bool numbered(const char *name, const char *prefix)
{
	size_t len = strlen(prefix);
	const char *p;

	return !strncmp(name, prefix, len) && (p = digits(name + len)) && !*p;
}

bool kft_trace_file_name(const char *n)
{
	const char *p;
	size_t len = strlen(n);

	/* a thread file being rewritten by kft compress, left by a crash */
	if (n[0] == '.' && len > 5 && !strcmp(n + len - 4, ".tmp")) {
		char inner[256];

		if (len - 5 >= sizeof(inner))
			return false;
		memcpy(inner, n + 1, len - 5);
		inner[len - 5] = '\0';
		return !strncmp(inner, "thread-", 7) && kft_trace_file_name(inner);
	}
	if (!strcmp(n, KFT_INFO_FILE) || !strcmp(n, KFT_CONFIG_FILE) ||
	    !strcmp(n, KFT_CONTROL_FILE) || !strcmp(n, "user-config") || !strcmp(n, "kallsyms") ||
	    !strcmp(n, KFT_SYMBOLS_FILE) || !strcmp(n, "." KFT_SYMBOLS_FILE ".tmp") ||
	    !strcmp(n, KFT_SWITCHES_FILE) ||
	    !strcmp(n, KFT_MARKS_FILE) || !strcmp(n, "config.new") || !strcmp(n, KFT_ENUMS_FILE) ||
	    !strcmp(n, KFT_PLAN_FILE) || !strcmp(n, "." KFT_PLAN_FILE ".new") ||
	    !strcmp(n, KFT_PLAN_SOCKET) || !strcmp(n, KFT_VDSO_FILE))
		return true;
	/* kft record --latency: the function, the link, the copies */
	if (!strcmp(n, KFT_LATENCY_FUNC_FILE) || !strcmp(n, "latency") ||
	    !strcmp(n, ".latency.tmp") || numbered(n, "latency."))
		return true;
	/* an earlier run's config, kept by kft config; process images'
	 * maps; a new thread file made ahead (spares.c), left by a crash */
	if (numbered(n, "config-run") || numbered(n, KFT_MAPS_PREFIX) ||
	    numbered(n, KFT_SPARE_PREFIX))
		return true;
	/* thread-SESSION-TID[-SEQ].kft, its records compressed: .kfz, its
	 * saved arguments: .args */
	if (strncmp(n, "thread-", 7) || !(p = digits(n + 7)) || *p != '-' || !(p = digits(p + 1)))
		return false;
	if (*p == '-' && !(p = digits(p + 1)))
		return false;
	return !strcmp(p, ".kft") || !strcmp(p, ".kfz") || !strcmp(p, ".args");
}

bool kft_trace_dir_holds(int dfd)
{
	char magic[sizeof(KFT_CONTROL_MAGIC)] = "";
	int fd = openat(dfd, KFT_CONTROL_FILE, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	bool yes;

	if (fd < 0)
		return false;
	yes = read(fd, magic, sizeof(magic)) == (ssize_t)sizeof(magic) &&
	      !memcmp(magic, KFT_CONTROL_MAGIC, sizeof(magic));
	close(fd);
	return yes;
}

void kft_trace_info(char *buf, size_t size, const char *version, const char *command,
		    const char *status)
{
	snprintf(buf, size, "kft-version = %s\nformat = %d\nclock = monotonic\ncommand =%s%s\n%s",
		 version, KFT_FORMAT_VERSION, *command ? " " : "", command, status);
}

int kft_trace_put_file(int dfd, const char *name, const void *data, size_t len, bool excl)
{
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | (excl ? O_EXCL : O_TRUNC) | O_CLOEXEC |
				   O_NOFOLLOW, 0600);
	bool ok;

	if (fd < 0)
		return -1;
	ok = write(fd, data, len) == (ssize_t)len;
	return close(fd) || !ok ? -1 : 0;
}

int kft_not_a_program(const char *path, struct kft_error *err)
{
	char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool elf = fd >= 0 && read(fd, magic, sizeof(magic)) == sizeof(magic) &&
		   !memcmp(magic, "\177ELF", 4);

	if (fd >= 0)
		close(fd);
	if (elf)
		return kft_error_set(err, "%s is a program, not a trace: record it first (kft record "
				     "-- %s), then read the trace it writes (kft.data)", path, path);
	return 0;
}
