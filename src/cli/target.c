// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the steering commands act on: a trace directory, or a traced
 * process by its PID, whose trace is the directory of the control file
 * it has mapped. Reading another process's memory map needs the right to
 * trace it (ptrace's access check): another user's process, or one
 * kernel.yama.ptrace_scope keeps out, is refused by the kernel itself.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../format/trace-format.h"
#include "cli.h"

static bool is_pid(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

int cli_trace_target(const char *arg, char *dir, size_t size)
{
	char path[64], line[4096 + 128];
	struct stat st;
	FILE *maps;
	int found = 0;

	if (!is_pid(arg) || (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))) {
		if (snprintf(dir, size, "%s", arg) >= (int)size)
			return fail("%s: too long a path", arg);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/%s/maps", arg);
	maps = fopen(path, "re");
	if (!maps) {
		if (errno == ENOENT)
			return fail("no process %s (and no directory of that name)", arg);
		return fail("process %s: %s: %s (another user's process, or one "
			    "kernel.yama.ptrace_scope keeps from you: only its owner, "
			    "or root, may steer it)", arg, path, strerror(errno));
	}
	/* "start-end perms offset dev inode   /path/to/kft.data/control" */
	while (!found && fgets(line, sizeof(line), maps)) {
		char *name = strchr(line, '/');
		size_t n;

		if (!name)
			continue;
		n = strcspn(name, "\n");
		name[n] = '\0';
		if (n < 8 || strcmp(name + n - 8, "/control") || strstr(name, " (deleted)"))
			continue;
		name[n - 8] = '\0';
		if (snprintf(dir, size, "%s", name) >= (int)size) {
			fclose(maps);
			return fail("process %s: too long a trace path", arg);
		}
		found = 1;
	}
	if (ferror(maps) && !found) {
		fclose(maps);
		return fail("process %s: %s: %s", arg, path, strerror(errno));
	}
	fclose(maps);
	if (!found)
		return fail("process %s is not traced by kft (no trace's control file in its "
			    "memory map)", arg);
	return 0;
}

struct kft_control *cli_map_control(const char *dir, const char *verb)
{
	struct kft_control *ctl;
	char path[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/control", dir);
	fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		fail("%s: %s", path, strerror(errno));
		return NULL;
	}
	ctl = mmap(NULL, sizeof(*ctl), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (ctl == MAP_FAILED) {
		fail("%s: %s", path, strerror(errno));
		return NULL;
	}
	if (memcmp(ctl->magic, KFT_CONTROL_MAGIC, sizeof(KFT_CONTROL_MAGIC)) ||
	    ctl->version != KFT_FORMAT_VERSION) {
		fail("%s: not a kft control file", path);
	} else if (ctl->ended_ns) {
		fail("%s: the program of the trace in %s has ended", verb, dir);
	} else {
		return ctl;
	}
	munmap(ctl, sizeof(*ctl));
	return NULL;
}

void cli_unmap_control(struct kft_control *ctl)
{
	munmap(ctl, sizeof(*ctl));
}
