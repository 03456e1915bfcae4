// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/mono-clock.h"
#include "../format/control.h"
#include "../format/trace-files.h"
#include "../symbols/symmap.h"
#include "journal.h"
#include "session.h"

const char *kft_kernel_state_path(const char *name)
{
	/* one buffer per name, so that paths stay valid side by side */
	static struct {
		char name[16];
		char path[PATH_MAX];
	} known[8];
	const char *dir = getenv("KFT_KERNEL_STATE");
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]) - 1 && known[i].path[0]; i++)
		if (!strcmp(known[i].name, name))
			return known[i].path;
	if (!dir || !*dir)
		dir = "/run/kft";
	mkdir(dir, 0700);
	snprintf(known[i].name, sizeof(known[i].name), "%s", name);
	snprintf(known[i].path, sizeof(known[i].path), "%s/%s", dir, name);
	return known[i].path;
}

int kft_kernel_session_check(struct kft_kernel *k, struct kft_config *cfg, const char *origin,
			     struct kft_error *err)
{
	if (kft_kernel_probe(k, err) || kft_kernel_check(k, cfg, origin, err)) {
		kft_kernel_release(k);
		return -1;
	}
	return 0;
}

int kft_kernel_session_restore(struct kft_error *err)
{
	struct kft_error why;

	if (access(kft_kernel_state_path("journal"), F_OK))
		return 0;
	if (kft_journal_restore(kft_kernel_state_path("journal"), &why))
		return kft_error_set(err, "restoring the kernel's tracing settings: %s", why.msg);
	return 0;
}

/* pid is a live kft (not another program that got its number since) */
static bool is_kft(pid_t pid)
{
	char path[64], comm[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return !strcmp(comm, "kft\n");
}

int kft_kernel_session_take(pid_t *left_behind, struct kft_error *err)
{
	pid_t owner = 0;
	int held = kft_journal_owner(kft_kernel_state_path("journal"), &owner, err);

	*left_behind = 0;
	if (held < 0)
		return -1;
	if (!held)
		return 0;
	if (owner == 0)
		return kft_error_set(err, "a `kft kernel` session is primed: end it with "
					  "`kft kernel stop` (or `kft kernel reset`)");
	if (owner != getpid() && is_kft(owner))
		return kft_error_set(err, "kft (pid %d) is tracing the kernel already", (int)owner);
	if (kft_kernel_session_restore(err))
		return -1;
	*left_behind = owner;
	return 0;
}

/* The kernel put back after a step that returned ret: a restore that
 * fails joins its error to the step's. 0, or -1 with err set. */
static int restore_after(int ret, struct kft_error *err)
{
	struct kft_error also, first;

	if (!kft_kernel_session_restore(&also))
		return ret ? -1 : 0;
	first = *err;
	if (ret)
		kft_error_set(err, "%s; and %s", first.msg, also.msg);
	else
		*err = also;
	return -1;
}

int kft_kernel_session_arm(struct kft_kernel *k, const struct kft_config *cfg, pid_t follow,
			   pid_t owner, struct kft_error *err)
{
	struct kft_journal j;
	int ret;

	if (kft_journal_begin(&j, kft_kernel_state_path("journal"), owner, err))
		return -1;
	ret = kft_kernel_arm(k, &j, cfg, follow, err);
	kft_journal_close(&j);
	return ret ? restore_after(ret, err) : 0;
}

static int control_io(const char *dir, struct kft_control *ctl, bool write, struct kft_error *err)
{
	char path[PATH_MAX];
	int fd;
	bool ok;

	snprintf(path, sizeof(path), "%s/" KFT_CONTROL_FILE, dir);
	fd = open(path, (write ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
	if (fd < 0)
		return kft_error_set(err, "%s: %s", path, strerror(errno));
	ok = (write ? pwrite(fd, ctl, sizeof(*ctl), 0) : pread(fd, ctl, sizeof(*ctl), 0)) ==
	     sizeof(*ctl);
	close(fd);
	return ok ? 0 : kft_error_set(err, "%s: cannot %s", path, write ? "update" : "read");
}

/* The trigger function's address, from the kallsyms saved in dir. */
static uint64_t trigger_addr(const char *dir, const struct kft_trigger *t)
{
	struct kft_symmap m = { 0 };
	const struct kft_mapsym *hit = NULL;
	char path[PATH_MAX];
	uint64_t addr;

	if (t->type != KFT_TRIGGER_ENTRY && t->type != KFT_TRIGGER_EXIT)
		return 0;
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	if (!t->func.name || kft_symmap_load(&m, path, NULL))
		return t->func.addr;
	kft_symmap_find(&m, t->func.name, &hit, 1);
	addr = hit ? hit->addr : 0;
	kft_symmap_free(&m);
	return addr;
}

/* The kernel's calls are in: the run started (if it logged anything) and
 * is complete; the kernel's process-image number is taken. */
static void mark_complete(struct kft_control *ctl, const char *dir, const struct kft_config *cfg,
			  const struct kft_kernel_result *res, bool by_trigger)
{
	uint32_t session = ctl->next_session++;

	/* without a start trigger the kernel's run began when kft armed it,
	 * before the program's own (the loader's calls come first) */
	if (res->calls && !cfg->start.type && res->first_ns < ctl->first_start_ns)
		ctl->first_start_ns = res->first_ns;
	if (res->calls) {
		/* the config's start trigger is the kernel's: it says why the run
		 * started, also when the program's side logged first */
		if (ctl->start.how == 0 || cfg->start.type != KFT_TRIGGER_NONE) {
			ctl->first_start_ns = res->first_ns;
			ctl->start.how = cfg->start.type ? (uint32_t)cfg->start.type : KFT_HOW_USER;
			ctl->start.session = session;
			ctl->start.mark_ns = res->first_ns;
			ctl->start.func = trigger_addr(dir, &cfg->start);
			ctl->start.usecs = cfg->start.usecs;
		}
		ctl->state |= KFT_STATE_TRIGGERED;
	}
	if (!(ctl->state & KFT_STATE_COMPLETE)) {
		ctl->state |= KFT_STATE_COMPLETE;
		ctl->stop.how = by_trigger ? (uint32_t)cfg->stop.type : KFT_HOW_USER;
		ctl->stop.session = session;
		ctl->stop.mark_ns = kft_mono_now_ns() - ctl->clock_base_ns;
		ctl->stop.func = by_trigger ? trigger_addr(dir, &cfg->stop) : 0;
		ctl->stop.usecs = cfg->stop.usecs;
	}
}

int kft_kernel_session_finish(struct kft_kernel *k, const char *dir, const struct kft_config *cfg,
			      bool by_trigger, struct kft_kernel_result *res,
			      struct kft_error *err)
{
	struct kft_control ctl;
	struct kft_error ignored;
	int ret;

	kft_kernel_set_on(k, false, &ignored);
	ret = control_io(dir, &ctl, false, err);
	if (!ret)
		ret = kft_kernel_collect(k->dir, dir, cfg, ctl.clock_base_ns, ctl.next_session, res,
					 err);
	if (!ret) {
		mark_complete(&ctl, dir, cfg, res, by_trigger);
		ret = control_io(dir, &ctl, true, err);
	}
	return restore_after(ret, err);
}

int kft_kernel_session_collect_boot(struct kft_kernel *k, const char *dir,
				    const struct kft_config *cfg, struct kft_kernel_result *res,
				    struct kft_error *err)
{
	struct kft_control ctl;
	char *clock = kft_file_read(kft_kernel_path(k, "trace_clock"), err);

	/* the boot's times are CLOCK_MONOTONIC, since boot: the trace's
	 * clock starts there, so Entry counts from power-on */
	if (clock && !strstr(clock, "[mono]")) {
		free(clock);
		return kft_error_set(err, "kernel: ftrace's clock is not mono (boot with "
					  "trace_clock=mono, as `kft kernel bootargs` says)");
	}
	free(clock);
	if (kft_kernel_set_on(k, false, err) || control_io(dir, &ctl, false, err))
		return -1;
	ctl.clock_base_ns = 0;
	if (kft_kernel_collect(k->dir, dir, cfg, 0, ctl.next_session, res, err))
		return -1;
	mark_complete(&ctl, dir, cfg, res, false);
	ctl.ended_ns = ctl.stop.mark_ns;
	return control_io(dir, &ctl, true, err);
}

void kft_kernel_left_text(pid_t left_behind, char *out, size_t size)
{
	snprintf(out, size, "restored the tracing settings a kft (pid %d) left behind",
		 (int)left_behind);
}

void kft_kernel_result_text(const struct kft_kernel_result *res, const char *dir, bool since_boot,
			    char *out, size_t size)
{
	int n = snprintf(out, size, "kernel: %llu calls from %llu tasks %s%s%s",
			 (unsigned long long)res->calls, (unsigned long long)res->tasks,
			 since_boot ? "traced since boot, in " : "in ", dir,
			 since_boot ? "; tracing is off now" : "");

	if (res->lost && n > 0 && (size_t)n < size)
		snprintf(out + n, size - (size_t)n,
			 " (%llu events lost: the buffer was full; raise logentries or "
			 "filter more)",
			 (unsigned long long)res->lost);
}

void kft_kernel_timers_init(struct kft_kernel_timers *t, const struct kft_config *cfg,
			    uint64_t t0)
{
	memset(t, 0, sizeof(*t));
	if (cfg->start.type == KFT_TRIGGER_TIME)
		t->on_at = t0 + cfg->start.usecs * 1000;
	if (cfg->stop.type == KFT_TRIGGER_TIME)
		t->stop_after = cfg->stop.usecs * 1000;
	if (cfg->start.type == KFT_TRIGGER_NONE) {
		t->was_on = true;
		t->started_at = t0;
	}
}

bool kft_kernel_timers_poll(struct kft_kernel_timers *t, const struct kft_kernel *k,
			    const struct kft_config *cfg)
{
	uint64_t now = kft_mono_now_ns();
	struct kft_error err;
	bool on;

	if (t->on_at && now >= t->on_at) {
		t->on_at = 0;
		kft_kernel_set_on(k, true, &err);
	}
	on = kft_kernel_is_on(k);
	if (on && !t->was_on) {
		t->was_on = true;
		t->started_at = now;
	}
	if (t->was_on && t->stop_after && now - t->started_at >= t->stop_after) {
		kft_kernel_set_on(k, false, &err);
		t->was_on = false;	/* autorepeat: the start trigger re-arms it */
		return !cfg->autorepeat;
	}
	/* the stop trigger turned tracing off (with autorepeat it comes back) */
	return t->was_on && !on && cfg->stop.type != KFT_TRIGGER_NONE && !cfg->autorepeat;
}
