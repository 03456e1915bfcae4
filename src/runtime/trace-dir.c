// SPDX-License-Identifier: LGPL-2.1
/*
 * The trace directory's descriptor, kept out of the program's way: at a
 * high number, so that the program's first open returns what it would
 * untraced, and close-on-exec (an exec'd image opens it anew, by the
 * path kft record passed on). A program may still close it (a daemon
 * closes every descriptor) or put a file of its own at its number: each
 * use checks it is still the directory, and opens it again if not.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime.h"

static char dir_path[PATH_MAX];
static dev_t dir_dev;
static ino_t dir_ino;

/* path opened, moved high: a descriptor, or -1 */
static KFT_NOTRACE int open_high(const char *path)
{
	struct rlimit rl;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), high = 1000, moved;

	if (fd < 0)
		return -1;
	/* below the limit, and below FD_SETSIZE: a program using select()
	 * can have any number under it */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < (rlim_t)high + 24)
		high = rl.rlim_cur > 64 ? (int)rl.rlim_cur - 24 : fd;
	if (high <= fd)
		return fd;
	moved = fcntl(fd, F_DUPFD_CLOEXEC, high);
	if (moved < 0)
		return fd;
	close(fd);
	return moved;
}

KFT_NOTRACE int kft_dir_open(const char *path)
{
	char link[64];
	struct stat st;
	ssize_t n;
	int fd = open_high(path);

	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* the whole path, for a program that changes its directory */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, dir_path, sizeof(dir_path) - 1);
	if (n <= 0 || dir_path[0] != '/')
		n = snprintf(dir_path, sizeof(dir_path), "%s", path);
	dir_path[n < (ssize_t)sizeof(dir_path) ? n : (ssize_t)sizeof(dir_path) - 1] = '\0';
	dir_dev = st.st_dev;
	dir_ino = st.st_ino;
	kft_rt.dirfd = fd;
	return 0;
}

KFT_NOTRACE int kft_dir(void)
{
	int fd = __atomic_load_n(&kft_rt.dirfd, __ATOMIC_ACQUIRE), mine;
	struct stat st;

	if (fd >= 0 && !fstat(fd, &st) && S_ISDIR(st.st_mode) && st.st_dev == dir_dev &&
	    st.st_ino == dir_ino)
		return fd;
	mine = open_high(dir_path);
	if (mine < 0)
		return fd;	/* (the calls on it fail, and say so as before) */
	/* two threads may find it gone at once: one's is kept */
	if (__atomic_compare_exchange_n(&kft_rt.dirfd, &fd, mine, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		return mine;
	close(mine);
	return fd;
}
