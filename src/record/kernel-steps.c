// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "../common/mono-clock.h"
#include "../kernel/journal.h"
#include "../kernel/session.h"
#include "kernel-steps.h"
#include "trace-dir.h"

int kft_kernel_take_into(const char *dir, const struct kft_config *cfg, uint32_t mode,
			 kft_say_fn say, void *ctx, struct kft_error *err)
{
	char text[128];
	pid_t left = 0;

	if (kft_kernel_session_take(&left, err))
		return -1;
	if (left) {
		kft_kernel_left_text(left, text, sizeof(text));
		say(ctx, text);
	}
	return kft_trace_dir_prepare(dir, err) ||
			       kft_trace_dir_write_run(dir, cfg, true, mode, 0, err)
		       ? -1
		       : 0;
}

bool kft_kernel_primed(void)
{
	struct kft_error err;
	pid_t owner = 1;

	return kft_journal_owner(kft_kernel_state_path("journal"), &owner, &err) == 1 && owner == 0;
}

/* Time triggers need someone awake: a helper that lives until the
 * session ends. */
static void spawn_timer(const struct kft_kernel *k, const struct kft_config *cfg)
{
	struct kft_kernel_timers t;
	pid_t pid;

	if (cfg->start.type != KFT_TRIGGER_TIME && cfg->stop.type != KFT_TRIGGER_TIME)
		return;
	pid = fork();
	if (pid != 0)
		return;
	setsid();
	kft_kernel_timers_init(&t, cfg, kft_mono_now_ns());
	while (kft_kernel_primed() && !kft_kernel_timers_poll(&t, k, cfg))
		nanosleep(&(struct timespec){ 0, 20 * 1000 * 1000 }, NULL);
	_exit(0);
}

int kft_kernel_prime(const char *dir, struct kft_config *cfg, const char *config_path,
		     kft_say_fn say, void *ctx, struct kft_error *err)
{
	struct kft_kernel k;
	struct utsname u;
	char info[256];
	int ret;

	if (kft_kernel_session_check(&k, cfg, config_path, err))
		return -1;
	uname(&u);
	snprintf(info, sizeof(info), "kernel = %s\nstatus = primed\n", u.release);
	ret = kft_kernel_take_into(dir, cfg, 0, say, ctx, err) ||
	      kft_trace_dir_write_info(dir, 0, NULL, info, err) ||
	      kft_kernel_session_arm(&k, cfg, 0, 0, err);
	if (!ret)
		spawn_timer(&k, cfg);
	kft_kernel_release(&k);
	return ret ? -1 : 0;
}

int kft_kernel_start(struct kft_error *err)
{
	struct kft_kernel k;
	int ret;

	if (!kft_kernel_primed())
		return kft_error_set(err, "no kernel session is primed: `kft kernel prime` first");
	if (kft_kernel_probe(&k, err))
		return -1;
	ret = kft_kernel_set_on(&k, true, err);
	kft_kernel_release(&k);
	return ret;
}

int kft_kernel_stop(const char *dir, const struct kft_config *cfg, struct kft_kernel_result *res,
		    struct kft_error *err)
{
	struct kft_kernel k;
	bool by_trigger;
	int ret;

	if (kft_kernel_probe(&k, err))
		return -1;
	/* off with a stop trigger set: it fired, and the trace says so */
	by_trigger = !kft_kernel_is_on(&k) && cfg->stop.type != KFT_TRIGGER_NONE;
	ret = kft_kernel_session_finish(&k, dir, cfg, by_trigger, res, err);
	kft_kernel_release(&k);
	return ret;
}

int kft_kernel_from_boot(const char *dir, const struct kft_config *cfg, kft_say_fn say,
			 void *ctx, struct kft_kernel_result *res, struct kft_error *err)
{
	struct kft_kernel k;
	int ret;

	if (kft_kernel_probe(&k, err))
		return -1;
	ret = kft_kernel_take_into(dir, cfg, 0, say, ctx, err) ||
	      kft_kernel_session_collect_boot(&k, dir, cfg, res, err) ? -1 : 0;
	kft_kernel_release(&k);
	return ret;
}

int kft_kernel_reset(struct kft_error *err)
{
	struct kft_kernel k;
	int ret;

	/* tracefs mounted (kft may have unmounted what it mounted) */
	if (kft_kernel_probe(&k, err))
		return -1;
	ret = kft_kernel_session_restore(err);
	kft_kernel_release(&k);
	return ret;
}
