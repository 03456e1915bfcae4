// SPDX-License-Identifier: LGPL-2.1
/*
 * Static runs (kft embed), as KFT's kftstatic.conf built a run into the
 * kernel: a program linked with the C file `kft embed` writes carries its
 * config in kft_embedded_config. Run without `kft record`, it makes its
 * own trace directory at start and traces itself from its first
 * instrumented call. The directory is $KFT_DIR, else the one kft embed
 * named (default kft.data), always made new: when that name is taken,
 * NAME.1, NAME.2, ... (kft never writes into a directory it did not make).
 * Its children find it through KFT_DIR and join it, as under kft record.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../format/control.h"
#include "../common/mono-clock.h"
#include "runtime.h"

/* defined by the program, when it was linked with kft embed's file */
extern const char kft_embedded_config[] __attribute__((weak));
extern const char kft_embedded_dir[] __attribute__((weak));

static pid_t maker;	/* the process that made the trace: it marks the end */

static KFT_NOTRACE bool is_trace(const char *dir)
{
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s/control", dir);
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static KFT_NOTRACE int put_file(int dirfd, const char *name, const void *data, size_t len)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	bool ok;

	if (fd < 0)
		return -1;
	ok = write(fd, data, len) == (ssize_t)len;
	return close(fd) || !ok ? -1 : 0;
}

/* config, control and info, as kft record writes them */
static KFT_NOTRACE int put_trace_files(int dirfd)
{
	struct kft_config cfg;
	struct kft_control ctl;
	char info[4096], cmd[2048] = "";
	size_t n = 0;
	int fd, len = 0;

	if (kft_config_parse(&cfg, kft_embedded_config, strlen(kft_embedded_config),
			     "kft_embedded_config", NULL))
		kft_config_init(&cfg);	/* checked by kft embed: not expected */
	kft_control_init(&ctl, kft_mono_now_ns(),
			 KFT_MODE_TIMED | (cfg.autorepeat ? KFT_MODE_AUTOREPEAT : 0) |
				 (cfg.overwrite ? KFT_MODE_OVERWRITE : 0),
			 true);
	kft_config_release(&cfg);
	fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		len = (int)read(fd, cmd, sizeof(cmd) - 1);
		close(fd);
	}
	for (int i = 0; i < len - 1; i++)
		if (!cmd[i])
			cmd[i] = ' ';
	n = (size_t)snprintf(info, sizeof(info),
			     "kft-version = static run (kft embed)\nformat = %d\nclock = monotonic\n"
			     "command = %s\nstatus = running\n",
			     KFT_FORMAT_VERSION, len > 0 ? cmd : "?");
	if (put_file(dirfd, "config", kft_embedded_config, strlen(kft_embedded_config)) ||
	    put_file(dirfd, "control", &ctl, sizeof(ctl)) ||
	    put_file(dirfd, "info", info, n < sizeof(info) ? n : sizeof(info) - 1))
		return -1;
	return 0;
}

KFT_NOTRACE const char *kft_static_run_dir(void)
{
	static char path[4096];
	const char *env = kft_env("KFT_DIR"), *base;
	int dirfd, n;

	if (!kft_embedded_config || (env && *env && is_trace(env)))
		return NULL;	/* not linked for it, or kft record's trace */
	base = env && *env ? env : kft_embedded_dir && *kft_embedded_dir ? kft_embedded_dir
									    : "kft.data";
	for (n = 0; n < 1000; n++) {
		if (snprintf(path, sizeof(path), n ? "%s.%d" : "%s", base, n) >= (int)sizeof(path))
			return NULL;
		if (!mkdir(path, 0700))
			break;
		if (errno != EEXIST)
			return NULL;
	}
	if (n == 1000)
		return NULL;
	dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (dirfd < 0)
		return NULL;
	n = put_trace_files(dirfd);
	close(dirfd);
	if (n || setenv("KFT_DIR", path, 1))
		return NULL;
	maker = getpid();
	return path;
}

KFT_NOTRACE void kft_static_run_end(void)
{
	uint64_t ended;

	if (!maker || getpid() != maker || !kft_rt.ctl)
		return;
	ended = kft_mono_now_ns() - kft_rt.ctl->clock_base_ns;
	__atomic_store_n(&kft_rt.ctl->ended_ns, ended ? ended : 1, __ATOMIC_RELEASE);
}
