// SPDX-License-Identifier: GPL-2.0-only
/* Laying out a trace directory: info, config, control (trace-dir.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/mono-clock.h"
#include "../common/version.h"
#include "../format/control.h"
#include "target.h"
#include "../format/trace-files.h"
#include "trace-dir.h"

void kft_trace_dir_remove_latency_copy(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct dirent *de;
	DIR *d;

	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d)))
		if (kft_trace_file_name(de->d_name))
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	unlinkat(dfd, name, AT_REMOVEDIR);
}

int kft_trace_dir_prepare(const char *dir, struct kft_error *err)
{
	struct stat st;
	struct dirent *de;
	bool trace, foreign = false;
	DIR *d;
	int dfd;

	if (!lstat(dir, &st) && S_ISLNK(st.st_mode))
		return kft_error_set(err, "%s: a symbolic link; kft writes a trace only into a directory "
			    "it can name without following links", dir);
	if (mkdir(dir, 0700) && errno != EEXIST)
		return kft_error_set(err, "%s: %s", dir, strerror(errno));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return kft_error_set(err, "%s: %s", dir, errno == ENOTDIR ? "not a directory" : strerror(errno));
	/* the lock goes with kft; the program it runs does not inherit it */
	if (flock(dfd, LOCK_EX | LOCK_NB)) {
		close(dfd);
		return kft_error_set(err, "%s: another kft is recording into it", dir);
	}
	trace = kft_trace_dir_holds(dfd);
	d = fdopendir(dup(dfd));
	if (!d) {
		close(dfd);
		return kft_error_set(err, "%s: %s", dir, strerror(errno));
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    !(trace && kft_trace_file_name(de->d_name)))
			foreign = true;
	if (foreign) {
		closedir(d);
		close(dfd);
		return kft_error_set(err, "%s: %s; kft records only into a new or empty directory, or over "
			    "a trace of its own (choose another -o)", dir,
			    trace ? "holds files that are not kft's besides a trace" :
				    "not empty, and not a kft trace");
	}
	rewinddir(d);
	while ((de = readdir(d)))
		if (kft_trace_file_name(de->d_name) && unlinkat(dfd, de->d_name, 0) && errno == EISDIR)
			kft_trace_dir_remove_latency_copy(dfd, de->d_name);
	closedir(d);
	return 0;	/* dfd stays open: it holds the lock */
}

int kft_trace_dir_write(const char *dir, const char *name, const void *data, size_t len,
			struct kft_error *err)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = dfd < 0 ? -1 : kft_trace_put_file(dfd, name, data, len, false);

	if (ret)
		kft_error_set(err, "%s/%s: %s", dir, name, strerror(errno));
	if (dfd >= 0)
		close(dfd);
	return ret;
}

int kft_trace_dir_replace(const char *dir, const char *name, const void *data, size_t len,
			  struct kft_error *err)
{
	char tmp[PATH_MAX], path[PATH_MAX];

	snprintf(tmp, sizeof(tmp), ".%s.new", name);
	if (kft_trace_dir_write(dir, tmp, data, len, err))
		return -1;
	snprintf(tmp, sizeof(tmp), "%s/.%s.new", dir, name);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (rename(tmp, path)) {
		kft_error_set(err, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int kft_trace_dir_write_info(const char *dir, int argc, char **argv, const char *status,
			     struct kft_error *err)
{
	char buf[8192], command[4096];
	size_t n = 0;

	command[0] = '\0';
	for (int i = 0; i < argc && n < sizeof(command) - 256; i++)
		n += (size_t)snprintf(command + n, sizeof(command) - n, "%s%s", i ? " " : "",
				      argv[i]);
	kft_trace_info(buf, sizeof(buf), KFT_VERSION, command, status);
	return kft_trace_dir_write(dir, KFT_INFO_FILE, buf, strlen(buf), err);
}

/* A time since the old base, since the new one (shift later): no earlier
 * than the new base */
static void rebase(uint64_t *ns, uint64_t shift)
{
	uint64_t v = __atomic_load_n(ns, __ATOMIC_RELAXED);

	__atomic_store_n(ns, v > shift ? v - shift : 0, __ATOMIC_RELAXED);
}

int kft_trace_dir_reset_clock(const char *dir, uint64_t *base)
{
	uint64_t now = kft_mono_now_ns(), shift;
	struct kft_error err;
	struct kft_control *ctl = kft_map_control(dir, "record", &err);

	if (!ctl)
		return -1;
	shift = now - ctl->clock_base_ns;
	__atomic_store_n(&ctl->clock_base_ns, now, __ATOMIC_RELEASE);
	/* a steering command may have started (or stopped) the run before
	 * the program was let go: it did so at the program's start, the
	 * moment the log's Entry counts from; marks before it would put
	 * every call before the start */
	if (__atomic_load_n(&ctl->first_start_ns, __ATOMIC_ACQUIRE) != UINT64_MAX)
		rebase(&ctl->first_start_ns, shift);
	if (ctl->start.how)
		rebase(&ctl->start.mark_ns, shift);
	if (ctl->stop.how)
		rebase(&ctl->stop.mark_ns, shift);
	kft_unmap_control(ctl);
	*base = now;
	return 0;
}

int kft_trace_dir_set_tsc_mult(const char *dir, uint64_t mult, struct kft_error *err)
{
	char path[PATH_MAX];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/" KFT_CONTROL_FILE, dir);
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || pwrite(fd, &mult, sizeof(mult), KFT_CONTROL_TSC_MULT_OFF) != sizeof(mult))
		ret = kft_error_set(err, "%s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return ret;
}

int kft_trace_dir_exit_status(int wstatus, char *status, size_t size)
{
	if (WIFSIGNALED(wstatus)) {
		snprintf(status, size, "status = killed by signal %d\n", WTERMSIG(wstatus));
		return 128 + WTERMSIG(wstatus);
	}
	snprintf(status, size, "status = exited %d\n", WEXITSTATUS(wstatus));
	return WEXITSTATUS(wstatus);
}

int kft_trace_dir_mark_ended(const char *dir, struct kft_error *err)
{
	struct kft_control ctl;
	char path[PATH_MAX];
	int fd, ret = -1;

	snprintf(path, sizeof(path), "%s/" KFT_CONTROL_FILE, dir);
	fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return kft_error_set(err, "%s: %s", path, strerror(errno));
	if (pread(fd, &ctl, sizeof(ctl), 0) == (ssize_t)sizeof(ctl)) {
		uint64_t ended = kft_mono_now_ns() - ctl.clock_base_ns;

		if (pwrite(fd, &ended, sizeof(ended), offsetof(struct kft_control, ended_ns)) ==
		    (ssize_t)sizeof(ended))
			ret = 0;
	}
	close(fd);
	return ret ? kft_error_set(err, "%s: cannot mark the end of the program", path) : 0;
}

int kft_trace_dir_write_run(const char *dir, const struct kft_config *cfg, bool primed,
			    uint32_t mode, uint64_t max_log_bytes, struct kft_error *err)
{
	struct kft_control ctl;
	char *text = kft_config_format(cfg);
	int ret;

	if (!text)
		return kft_error_set(err, "out of memory");
	ret = kft_trace_dir_write(dir, KFT_CONFIG_FILE, text, strlen(text), err);
	free(text);
	if (ret)
		return ret;
	kft_control_init(&ctl, kft_mono_now_ns(),
			 KFT_MODE_TIMED | (cfg->autorepeat ? KFT_MODE_AUTOREPEAT : 0) |
				 (cfg->overwrite ? KFT_MODE_OVERWRITE : 0) | mode,
			 primed);
	ctl.max_log_bytes = max_log_bytes;
	return kft_trace_dir_write(dir, KFT_CONTROL_FILE, &ctl, sizeof(ctl), err);
}
