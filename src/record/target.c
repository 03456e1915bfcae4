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
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../format/trace-files.h"
#include "../format/trace-format.h"
#include "target.h"

static bool is_pid(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

int kft_each_mapping(long pid, int (*fn)(struct kft_mapping *m, void *ctx), void *ctx)
{
	char path[64], line[4096 + 128];
	int ret = 0;
	FILE *maps;

	snprintf(path, sizeof(path), "/proc/%ld/maps", pid);
	maps = fopen(path, "re");
	if (!maps)
		return -1;
	/* "start-end perms offset dev inode   /path/to/file[ (deleted)]" */
	while (!ret && fgets(line, sizeof(line), maps)) {
		struct kft_mapping m = { .path = strchr(line, '/') };
		unsigned long long start, offset;
		size_t n;

		if (!m.path || sscanf(line, "%llx-%*x %7s %llx", &start, m.perms, &offset) != 3)
			continue;
		m.start = start;
		m.offset = offset;
		n = strcspn(m.path, "\n");
		m.path[n] = '\0';
		if (n > 10 && !strcmp(m.path + n - 10, " (deleted)")) {
			m.deleted = true;
			m.path[n - 10] = '\0';
		}
		ret = fn(&m, ctx);
	}
	if (!ret && ferror(maps))
		ret = -1;
	fclose(maps);
	return ret;
}

struct object {
	const char *name;
	char *path;
	size_t size;
	uint64_t base;
};

static int find_object(struct kft_mapping *m, void *arg)
{
	struct object *o = arg;

	if (m->offset || m->deleted ||
	    (strcmp(m->path, o->name) && strcmp(strrchr(m->path, '/') + 1, o->name)))
		return 0;
	if (o->path)
		snprintf(o->path, o->size, "%s", m->path);
	o->base = m->start;
	return 1;
}

uint64_t kft_object_base(long pid, const char *name, char *path, size_t size)
{
	struct object o = { name, path, size, 0 };

	return kft_each_mapping(pid, find_object, &o) > 0 ? o.base : 0;
}

/* The trace directory whose control file a process has mapped. */
struct control_of {
	char *dir;
	size_t size;
};

static int find_control(struct kft_mapping *m, void *arg)
{
	struct control_of *c = arg;
	size_t n = strlen(m->path);

	if (n < 8 || strcmp(m->path + n - 8, "/" KFT_CONTROL_FILE) || m->deleted)
		return 0;
	m->path[n - 8] = '\0';
	return snprintf(c->dir, c->size, "%s", m->path) >= (int)c->size ? 2 : 1;
}

int kft_trace_target(const char *arg, char *dir, size_t size, struct kft_error *err)
{
	struct control_of c = { dir, size };
	struct stat st;
	int found;

	if (!is_pid(arg) || (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))) {
		if (snprintf(dir, size, "%s", arg) >= (int)size)
			return kft_error_set(err, "%s: too long a path", arg);
		return 0;
	}
	errno = 0;
	found = kft_each_mapping(strtol(arg, NULL, 10), find_control, &c);
	if (found < 0 && errno == ENOENT)
		return kft_error_set(err, "no process %s (and no directory of that name)", arg);
	if (found < 0)
		return kft_error_set(err, "process %s: /proc/%s/maps: %s (another user's process, "
					  "or one kernel.yama.ptrace_scope keeps from you: only "
					  "its owner, or root, may steer it)", arg, arg,
				     strerror(errno));
	if (found == 2)
		return kft_error_set(err, "process %s: too long a trace path", arg);
	if (!found)
		return kft_error_set(err, "process %s is not traced by kft (no trace's control file "
					  "in its memory map)", arg);
	return 0;
}

struct kft_control *kft_map_control(const char *dir, const char *verb, struct kft_error *err)
{
	struct kft_control *ctl;
	char path[4200];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/" KFT_CONTROL_FILE, dir);
	fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		kft_error_set(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	/* a map past the file's end is a SIGBUS at the first read (a file
	 * cut short, or one kft record is still making) */
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(*ctl)) {
		close(fd);
		kft_error_set(err, "%s: not a kft control file (truncated or corrupt)", path);
		return NULL;
	}
	ctl = mmap(NULL, sizeof(*ctl), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (ctl == MAP_FAILED) {
		kft_error_set(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (memcmp(ctl->magic, KFT_CONTROL_MAGIC, sizeof(KFT_CONTROL_MAGIC)) ||
	    ctl->version != KFT_FORMAT_VERSION) {
		kft_error_set(err, "%s: not a kft control file", path);
	} else if (ctl->ended_ns) {
		kft_error_set(err, "%s: the program of the trace in %s has ended", verb, dir);
	} else {
		return ctl;
	}
	munmap(ctl, sizeof(*ctl));
	return NULL;
}

void kft_unmap_control(struct kft_control *ctl)
{
	munmap(ctl, sizeof(*ctl));
}
