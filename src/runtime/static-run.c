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

#include "../common/mono-clock.h"
#include "../common/version.h"
#include "../format/control.h"
#include "../format/trace-files.h"
#include "runtime.h"

/* defined by the program, when it was linked with kft embed's file */
extern const char kft_embedded_config[] __attribute__((weak));
extern const char kft_embedded_dir[] __attribute__((weak));

static pid_t maker;	/* the process that made the trace: it marks the end */

/* Whether dir holds a trace (kft record's, for a program it runs). */
static KFT_NOTRACE bool is_trace(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	bool yes = dfd >= 0 && kft_trace_dir_holds(dfd);

	if (dfd >= 0)
		close(dfd);
	return yes;
}

/* config, control and info, as kft record writes them */
static KFT_NOTRACE int put_trace_files(int dirfd)
{
	struct kft_config cfg;
	struct kft_control ctl;
	char info[8192], cmd[2048] = "";
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
	kft_trace_info(info, sizeof(info), KFT_VERSION " (a static run: kft embed)",
		       len > 0 ? cmd : "?", "status = running\n");
	return kft_trace_put_file(dirfd, KFT_CONFIG_FILE, kft_embedded_config,
				  strlen(kft_embedded_config), true) ||
			       kft_trace_put_file(dirfd, KFT_CONTROL_FILE, &ctl, sizeof(ctl), true) ||
			       kft_trace_put_file(dirfd, KFT_INFO_FILE, info, strlen(info), true)
		       ? -1
		       : 0;
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
