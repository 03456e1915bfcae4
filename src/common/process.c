// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "process.h"

/* pid's state letter and parent, from /proc/PID/stat; false if gone. */
static bool read_stat(pid_t pid, char *state, pid_t *ppid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* "pid (comm) S ppid ...": the command may hold ')' and spaces, so
	 * the state follows the last ')' */
	p = strrchr(buf, ')');
	if (!p || !p[1] || !p[2])
		return false;
	*state = p[2];
	*ppid = (pid_t)strtol(p + 3, NULL, 10);
	return true;
}

bool kft_process_gone(pid_t pid)
{
	char state;
	pid_t ppid;

	if (kill(pid, 0) && errno == ESRCH)
		return true;
	if (!read_stat(pid, &state, &ppid))
		return errno == ENOENT;
	return state == 'Z' || state == 'X';
}

bool kft_process_maps_dir(pid_t pid, const char *dir)
{
	char path[64], real[PATH_MAX + 2], line[PATH_MAX + 256];
	bool found = false;
	size_t len;
	FILE *f;

	if (kft_process_gone(pid) || !realpath(dir, real))
		return false;
	len = strlen(real);
	real[len++] = '/';
	real[len] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	/* "start-end perms offset dev inode    path" */
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/');

		found = p && !strncmp(p, real, len) && !strchr(p + len, '/');
	}
	fclose(f);
	return found;
}

size_t kft_process_children(pid_t parent, pid_t *pids, size_t max)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		pid_t pid, ppid;
		char state;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = (pid_t)strtol(de->d_name, NULL, 10);
		if (!read_stat(pid, &state, &ppid) || ppid != parent || state == 'Z' ||
		    state == 'X')
			continue;
		if (n < max)
			pids[n] = pid;
		n++;
	}
	closedir(d);
	return n;
}
