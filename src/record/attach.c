// SPDX-License-Identifier: GPL-2.0-only
/*
 * Attaching (kft record -p PID): trace a program that is running
 * already, built with -fpatchable-function-entry=5 or without
 * instrumentation and started without kft, until Ctrl-C or the config's
 * stop trigger, then let it run on with its code as it was.
 *
 * The trace directory is made as for a program kft starts. Then, through
 * ptrace (inject.c), the process loads libkft with its own dlopen and
 * calls kft_attach(DIR): the runtime joins the trace, rewrites the entry
 * NOPs into calls while the threads run, and its helper thread follows
 * the run. To leave, kft stops the run and asks the helper (in the control
 * file) to make every entry a NOP again; the helper says when it has, and
 * ends. libkft stays loaded, idle: a call open at the end still returns
 * through it. A program built without instrumentation has its entries
 * patched and given back with every thread held still (attach-plain.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../common/mono-clock.h"
#include "../format/control.h"
#include "../symbols/elf-symtab.h"
#include "attach-plain.h"
#include "attach.h"
#include "inject.h"
#include "launch.h"
#include "target.h"
#include "trace-dir.h"

#define DETACH_WAIT_MS 5000

/* kft_attach's answers (src/runtime/runtime.h) */
static const char *const attach_errors[] = {
	[1] = "it is traced by kft already",
	[2] = "its runtime could not join the trace directory",
	[3] = "kft's runtime has no helper thread in it (one CPU, or KFT_PREFAULT=0 in "
	      "its environment), which a program traced this way needs",
	[4] = "this kernel cannot have code rewritten under running threads (membarrier "
	      "SYNC_CORE)",
};

/* The address of function sym of object `name` in process pid, or 0
 * (the objects this is asked of are linked at address 0). */
static uint64_t remote_function(pid_t pid, const char *name, const char *sym)
{
	char path[PATH_MAX];
	uint64_t base = kft_object_base(pid, name, path, sizeof(path)), addr = 0;
	char versioned[128];
	struct kft_elf elf;

	if (!base || kft_elf_open(&elf, path, NULL))
		return 0;
	/* a library's debug symbols name its exports with their version */
	snprintf(versioned, sizeof(versioned), "%s@@*", sym);
	if (!kft_elf_find(&elf, sym, &addr, 1) && !kft_elf_find_glob(&elf, versioned, &addr, 1))
		addr = 0;
	kft_elf_close(&elf);
	return addr ? base + addr : 0;
}

/* What dlerror() says in the process, read from its memory. */
static void remote_dlerror(struct kft_inject *in, uint64_t dlerror_fn, char *msg, size_t size)
{
	uint64_t at = 0;
	struct iovec local = { msg, size - 1 }, remote;

	snprintf(msg, size, "no reason given");
	if (!dlerror_fn || kft_inject_call(in, dlerror_fn, 0, 0, &at) || !at)
		return;
	remote = (struct iovec){ (void *)(uintptr_t)at, size - 1 };
	memset(msg, 0, size);
	if (process_vm_readv(in->pid, &local, 1, &remote, 1, 0) <= 0)
		snprintf(msg, size, "no reason readable");
}

/* libkft into process pid, and into the trace in dir (absolute); with
 * plans, the entries they name patched by it, its threads held still. */
static int inject_runtime(pid_t pid, const char *runtime, const char *dir,
			  struct kft_patch_plans *plans, struct kft_error *err)
{
	struct kft_stopped held = { 0 };
	uint64_t dlopen_fn = remote_function(pid, "libc.so.6", "dlopen");
	uint64_t dlerror_fn = remote_function(pid, "libc.so.6", "dlerror");
	uint64_t lib_at, dir_at, handle = 0, attach_fn, ret = 0;
	struct kft_inject in;
	char why[512];
	int rc = -1;

	if (!dlopen_fn)
		return kft_error_set(err, "process %d: no dlopen found in its C library (glibc's "
				     "libc.so.6 is needed)", (int)pid);
	if (kft_inject_begin(&in, pid)) {
		*err = in.err;
		goto out;
	}
	if (plans->n && kft_attach_plain_prepare(pid, in.saved.rip, plans, dir, &held, err))
		goto out;
	if (kft_inject_string(&in, runtime, &lib_at) ||
	    kft_inject_string(&in, dir, &dir_at) ||
	    kft_inject_call(&in, dlopen_fn, lib_at, 2 /* RTLD_NOW */, &handle)) {
		*err = in.err;
		goto out;
	}
	if (!handle) {
		remote_dlerror(&in, dlerror_fn, why, sizeof(why));
		kft_error_set(err, "process %d: it could not load %s: %s", (int)pid, runtime, why);
		goto out;
	}
	attach_fn = remote_function(pid, runtime, "kft_attach");
	if (!attach_fn) {
		kft_error_set(err, "process %d: kft_attach not found in %s as it loaded it",
			      (int)pid, runtime);
		goto out;
	}
	if (kft_inject_call(&in, attach_fn, dir_at, 0, &ret)) {
		*err = in.err;
		goto out;
	}
	if ((uint32_t)ret) {
		uint32_t e = (uint32_t)ret;

		kft_error_set(err, "process %d: cannot trace it: %s", (int)pid,
			      e < sizeof(attach_errors) / sizeof(attach_errors[0]) && attach_errors[e]
				      ? attach_errors[e]
				      : "kft_attach failed");
		goto out;
	}
	rc = 0;
out:
	/* (the first error is the one said) */
	if (kft_inject_end(&in) && !rc) {
		*err = in.err;
		rc = -1;
	}
	kft_threads_release(&held);
	return rc;
}

int kft_attach_begin(pid_t pid, const char *exe, const char *dir, const struct kft_config *cfg,
		     bool primed, uint32_t mode, uint64_t max_size, struct kft_patch_plans *plans,
		     struct kft_error *err)
{
	char runtime[PATH_MAX], lib[PATH_MAX], absdir[PATH_MAX], pidtext[32];
	char dash_p[] = "-p", *info_argv[3] = { dash_p, pidtext, (char *)exe };
	struct kft_elf elf;
	bool patchable;

	snprintf(pidtext, sizeof(pidtext), "%d", (int)pid);
	if (kft_elf_open_headers(&elf, exe, NULL))
		return kft_error_set(err, "process %d: cannot read its program %s", (int)pid, exe);
	patchable = elf.patch_size > 0;
	kft_elf_close(&elf);
	if (!patchable && !plans->program)
		return kft_error_set(err, "process %d (%s) was not built with "
				     "-fpatchable-function-entry=5: kft attaches only to such "
				     "programs and those built without instrumentation (start "
				     "others under kft record)", (int)pid, exe);
	if (kft_launch_find_runtime(lib, sizeof(lib), err))
		return -1;
	if (!realpath(lib, runtime))
		return kft_error_set(err, "runtime library %s: %s", lib, strerror(errno));
	if (kft_trace_dir_prepare(dir, err) ||
	    kft_trace_dir_write_run(dir, cfg, primed, mode, max_size, err) ||
	    kft_trace_dir_write_info(dir, 3, info_argv, "status = attaching\n", err))
		return -1;
	if (!realpath(dir, absdir))
		return kft_error_set(err, "%s: %s", dir, strerror(errno));
	if (inject_runtime(pid, runtime, absdir, plans, err))
		return -1;
	return kft_trace_dir_write_info(dir, 3, info_argv, "status = attached\n", err);
}

static bool process_gone(pid_t pid)
{
	char path[64], state = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return true;
	/* "pid (comm) S ...": a zombie has ended */
	if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
		state = 0;
	fclose(f);
	return state == 'Z' || state == 'X';
}

static const char *const ends[] = {
	[KFT_ATTACH_DETACHED] = "detached",
	[KFT_ATTACH_EXITED] = "exited while attached",
	[KFT_ATTACH_EXITED_DETACHING] = "exited while detaching",
	[KFT_ATTACH_DETACHING] = "detaching",
};

enum kft_attach_end kft_attach_follow(pid_t pid, const char *exe, const char *dir,
				      const volatile sig_atomic_t *interrupted,
				      struct kft_error *err)
{
	char pidtext[32], dash_p[] = "-p", *info_argv[3] = { dash_p, pidtext, (char *)exe };
	char status[64];
	enum kft_attach_end end = KFT_ATTACH_DETACHING;
	struct kft_control *ctl = kft_map_control(dir, "record", err);
	struct kft_error restore_err;
	bool restored = true;
	uint64_t st;
	int ret;

	if (!ctl)
		return KFT_ATTACH_FAILED;
	for (;;) {
		if (process_gone(pid)) {
			end = KFT_ATTACH_EXITED;
			goto out;
		}
		st = __atomic_load_n(&ctl->state, __ATOMIC_ACQUIRE);
		if (*interrupted || (st & KFT_STATE_COMPLETE))
			break;
		kft_nap_ms(20);
	}
	if (!(st & KFT_STATE_COMPLETE))
		kft_control_stop(ctl, KFT_HOW_USER, kft_mono_now_ns() - ctl->clock_base_ns, 0, 0, 0);
	/* a program built without instrumentation: its code given back */
	if (kft_attach_plain_restore(pid, dir, &restore_err) && !process_gone(pid))
		restored = false;
	__atomic_fetch_or(&ctl->mode, KFT_MODE_DETACH, __ATOMIC_RELEASE);
	for (int ms = 0; ms < DETACH_WAIT_MS; ms += 5) {
		if (__atomic_load_n(&ctl->state, __ATOMIC_ACQUIRE) & KFT_STATE_DETACHED) {
			end = KFT_ATTACH_DETACHED;
			break;
		}
		if (process_gone(pid)) {
			end = KFT_ATTACH_EXITED_DETACHING;
			break;
		}
		kft_nap_ms(5);
	}
out:
	kft_unmap_control(ctl);
	snprintf(pidtext, sizeof(pidtext), "%d", (int)pid);
	snprintf(status, sizeof(status), "status = %s\n", ends[end]);
	ret = kft_trace_dir_write_info(dir, 3, info_argv, status, err);
	if (!ret)
		ret = kft_trace_dir_mark_ended(dir, err);
	if (!ret && end == KFT_ATTACH_DETACHING)
		kft_error_set(err, "process %d did not say within %d s that its function "
			      "entries are NOPs again", (int)pid, DETACH_WAIT_MS / 1000);
	if (!ret && !restored) {
		*err = restore_err;
		return KFT_ATTACH_FAILED;
	}
	return ret ? KFT_ATTACH_FAILED : end;
}
