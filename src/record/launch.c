// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launch.h"

int kft_launch_find_program(const char *prog, char *out, size_t size, struct kft_error *err)
{
	const char *path = getenv("PATH");
	struct stat st;

	if (strchr(prog, '/')) {
		snprintf(out, size, "%s", prog);
		/* found but not to run: the status a shell gives it */
		if (!stat(out, &st) && S_ISDIR(st.st_mode)) {
			kft_error_set(err, "%s: is a directory, not a program", prog);
			return 126;
		}
		if (!access(out, X_OK))
			return 0;
		if (!access(out, F_OK)) {
			kft_error_set(err, "%s: not executable (chmod +x, or name its interpreter: "
				       "kft record -- sh %s)", prog, prog);
			return 126;
		}
	} else {
		for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
			const char *end = strchrnul(p, ':');

			snprintf(out, size, "%.*s/%s", (int)(end - p), p, prog);
			if (end > p && !access(out, X_OK))
				return 0;
			p = *end ? end + 1 : end;
		}
	}
	kft_error_set(err, "%s: program not found%s", prog,
		      strchr(prog, '/') ? "" : " in PATH");
	return 127;
}

int kft_launch_find_runtime(char *out, size_t size, struct kft_error *err)
{
	const char *env = getenv("KFT_LIBRARY");
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env) {
		snprintf(out, size, "%s", env);
		return access(out, R_OK) ? kft_error_set(err, "KFT_LIBRARY=%s: %s", env,
							 strerror(errno))
					 : 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return kft_error_set(err, "cannot find myself: %s", strerror(errno));
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	if ((size_t)snprintf(out, size, "%s/../lib/libkft.so", self) >= size || access(out, R_OK))
		return kft_error_set(err, "runtime library not found at %s (set KFT_LIBRARY)",
				     out);
	return 0;
}

/* SIGINT and SIGQUIT as kft found them, while it ignores them */
static struct {
	bool saved;
	struct sigaction intr, quit;
} caller_signals;

void kft_launch_hold_signals(void)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };

	sigaction(SIGINT, &ign, &caller_signals.intr);
	sigaction(SIGQUIT, &ign, &caller_signals.quit);
	caller_signals.saved = true;
}

void kft_launch_release_signals(void)
{
	if (!caller_signals.saved)
		return;
	sigaction(SIGINT, &caller_signals.intr, NULL);
	sigaction(SIGQUIT, &caller_signals.quit, NULL);
	caller_signals.saved = false;
}

int kft_launch_go(int fd)
{
	return write(fd, "g", 1) == 1 ? 0 : -1;
}

pid_t kft_launch(const char *prog, char **argv, const char *runtime, const char *dir,
		 const int *gate, struct kft_error *err)
{
	char abs_dir[PATH_MAX], preload[2 * PATH_MAX];
	const char *old = getenv("LD_PRELOAD");
	pid_t pid;

	if (!realpath(dir, abs_dir))
		return kft_error_set(err, "%s: %s", dir, strerror(errno));
	if (!runtime)
		preload[0] = '\0';
	else if (old && *old)
		snprintf(preload, sizeof(preload), "%s:%s", runtime, old);
	else
		snprintf(preload, sizeof(preload), "%s", runtime);
	pid = fork();
	if (pid < 0)
		return kft_error_set(err, "fork: %s", strerror(errno));
	if (pid == 0) {
		sigset_t none;
		char go;

		/* what kft ignores or holds while it waits is the program's */
		if (caller_signals.saved) {
			sigaction(SIGINT, &caller_signals.intr, NULL);
			sigaction(SIGQUIT, &caller_signals.quit, NULL);
		}
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (gate) {
			close(gate[1]);
			if (read(gate[0], &go, 1) != 1)
				_exit(127);
			close(gate[0]);
		}
		if (runtime) {
			setenv("LD_PRELOAD", preload, 1);
			setenv("KFT_DIR", abs_dir, 1);
		}
		execv(prog, argv);
		/* (the child's only way to say it: kft waits for its status) */
		fprintf(stderr, "kft: cannot run %s: %s\n", prog, strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	return pid;
}

/* A variable the runtime or the kernel backend reads: what it may hold. */
struct env_rule {
	const char *name;
	const char *values;	/* "a|b": one of them; NULL: a size (digits, K, M, G) */
};

static const struct env_rule env_rules[] = {
	{ "KFT_CLOCK", "monotonic|tsc" },
	{ "KFT_PREFAULT", "0|1" },
	{ "KFT_COMPRESS_BEHIND", NULL },
	{ "KFT_KERNEL_TRACER", "function|function_graph" },
};

static bool one_of(const char *v, const char *values)
{
	size_t n = strlen(v);

	for (const char *p = values; p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL)
		if (!strncmp(p, v, n) && (p[n] == '|' || !p[n]))
			return true;
	return false;
}

static bool is_size(const char *v)
{
	size_t digits = strspn(v, "0123456789");

	return digits && (!v[digits] || (strchr("KkMmGg", v[digits]) && !v[digits + 1]));
}

int kft_launch_check_environment(struct kft_error *err)
{
	for (size_t i = 0; i < sizeof(env_rules) / sizeof(env_rules[0]); i++) {
		const struct env_rule *r = &env_rules[i];
		const char *v = getenv(r->name);

		if (!v || (r->values ? one_of(v, r->values) : is_size(v)))
			continue;
		if (r->values)
			return kft_error_set(err, "%s='%s': expected one of %s", r->name, v,
					     r->values);
		return kft_error_set(err, "%s='%s': expected a size in bytes (suffix K, M or G)",
				     r->name, v);
	}
	return 0;
}
