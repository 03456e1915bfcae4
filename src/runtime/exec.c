// SPDX-License-Identifier: LGPL-2.1
/*
 * A process keeps its profiling timer across exec, and the new image
 * starts with SIGPROF at its default action, which kills: a -pg program
 * that execs another (or itself) depends on the new image's start-up
 * code handling SIGPROF before the timer runs out. Under kft the new
 * image's start-up is longer (and much longer under a sanitizer), and
 * programs died of it. So while a profiling timer runs, exec goes with
 * SIGPROF ignored, which exec keeps: a -pg image installs its handler as
 * usual, and gmon puts "ignored" back at exit. If exec fails, the action
 * is given back.
 *
 * A program may also give a new image an environment of its own (execve,
 * execle, posix_spawn with envp): kft's variables are added to it, so
 * that the new image is traced like any other.
 */
#include <dlfcn.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "runtime.h"

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execvpe_fn)(const char *, char *const[], char *const[]);

static KFT_NOTRACE bool ignore_sigprof(struct sigaction *old)
{
	struct itimerval it;
	struct sigaction ign;

	if (getitimer(ITIMER_PROF, &it) || (!it.it_value.tv_sec && !it.it_value.tv_usec))
		return false;
	if (sigaction(SIGPROF, NULL, old) ||
	    (!(old->sa_flags & SA_SIGINFO) && old->sa_handler == SIG_IGN))
		return false;
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	return !sigaction(SIGPROF, &ign, NULL);
}

static KFT_NOTRACE void *real(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

/* What a traced image needs from the environment, besides LD_PRELOAD. */
static const char *const carried[] = { "KFT_DIR", "KFT_CLOCK", "KFT_PREFAULT",
				       "KFT_COMPRESS_BEHIND" };

static KFT_NOTRACE const char *find(char *const envp[], const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; envp && envp[i]; i++)
		if (!strncmp(envp[i], name, n) && envp[i][n] == '=')
			return envp[i] + n + 1;
	return NULL;
}

/*
 * envp with kft's variables: envp itself if it has them (environ does),
 * else a copy with them added (LD_PRELOAD: ours first, then the
 * program's), which the caller frees with free_env.
 */
static KFT_NOTRACE char **with_ours(char *const envp[])
{
	const char *preload = getenv("LD_PRELOAD"), *theirs, *v;
	size_t n = 0, k = 0, len;
	char **out;

	if (!kft_rt.dirfd || kft_rt.ready != 1 || !preload || !envp || find(envp, "KFT_DIR"))
		return (char **)envp;
	while (envp[n])
		n++;
	out = malloc((n + 2 + sizeof(carried) / sizeof(carried[0])) * sizeof(*out));
	if (!out)
		return (char **)envp;
	theirs = find(envp, "LD_PRELOAD");
	len = strlen(preload) + (theirs ? strlen(theirs) + 1 : 0) + sizeof("LD_PRELOAD=");
	if (!(out[k] = malloc(len))) {
		free(out);
		return (char **)envp;
	}
	snprintf(out[k++], len, "LD_PRELOAD=%s%s%s", preload, theirs ? ":" : "",
		 theirs ? theirs : "");
	for (size_t i = 0; i < sizeof(carried) / sizeof(carried[0]); i++)
		if (!find(envp, carried[i]) && (v = getenv(carried[i])) &&
		    (out[k] = malloc(strlen(carried[i]) + strlen(v) + 2)))
			sprintf(out[k++], "%s=%s", carried[i], v);
	for (size_t i = 0; i < n; i++)
		if (strncmp(envp[i], "LD_PRELOAD=", 11))
			out[k++] = envp[i];
	out[k] = NULL;
	return out;
}

static KFT_NOTRACE void free_env(char **env, char *const envp[])
{
	if (env == envp)
		return;
	/* the strings made here, not the program's */
	for (size_t i = 0; env[i]; i++) {
		bool theirs = false;

		for (size_t j = 0; envp[j] && !theirs; j++)
			theirs = env[i] == envp[j];
		if (!theirs)
			free(env[i]);
	}
	free(env);
}

KFT_EXPORT KFT_NOTRACE int execve(const char *path, char *const argv[], char *const envp[])
{
	execve_fn fn = (execve_fn)real("execve");
	struct sigaction old;
	bool held = ignore_sigprof(&old);
	char **env = with_ours(envp);
	int ret = fn(path, argv, env);

	free_env(env, envp);
	if (held)
		sigaction(SIGPROF, &old, NULL);
	return ret;
}

KFT_EXPORT KFT_NOTRACE int execvpe(const char *file, char *const argv[], char *const envp[])
{
	execvpe_fn fn = (execvpe_fn)real("execvpe");
	struct sigaction old;
	bool held = ignore_sigprof(&old);
	char **env = with_ours(envp);
	int ret = fn(file, argv, env);

	free_env(env, envp);
	if (held)
		sigaction(SIGPROF, &old, NULL);
	return ret;
}

typedef int (*spawn_fn)(pid_t *, const char *, const posix_spawn_file_actions_t *,
			const posix_spawnattr_t *, char *const[], char *const[]);

#define SPAWN_WRAPPER(name)							\
	KFT_EXPORT KFT_NOTRACE int name(pid_t *pid, const char *path,		\
					const posix_spawn_file_actions_t *actions,	\
					const posix_spawnattr_t *attr, char *const argv[],	\
					char *const envp[])			\
	{									\
		spawn_fn fn = (spawn_fn)real(#name);				\
		char **env = with_ours(envp);					\
		int ret = fn(pid, path, actions, attr, argv, env);		\
										\
		free_env(env, envp);						\
		return ret;							\
	}

SPAWN_WRAPPER(posix_spawn)
SPAWN_WRAPPER(posix_spawnp)

KFT_EXPORT KFT_NOTRACE int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

KFT_EXPORT KFT_NOTRACE int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

/* The variadic forms: their arguments as an array, up to the NULL, then
 * (execle) the environment. */
static KFT_NOTRACE int exec_list(const char *path, const char *arg, va_list ap, bool search,
				 bool with_env)
{
	size_t n = 1;
	va_list count;
	char **argv, **envp = environ;

	va_copy(count, ap);
	while (va_arg(count, char *))
		n++;
	va_end(count);
	argv = __builtin_alloca((n + 1) * sizeof(char *));
	argv[0] = (char *)arg;
	for (size_t i = 1; i <= n; i++)
		argv[i] = va_arg(ap, char *);
	if (with_env)
		envp = va_arg(ap, char **);
	return search ? execvpe(path, argv, envp) : execve(path, argv, envp);
}

KFT_EXPORT KFT_NOTRACE int execl(const char *path, const char *arg, ...)
{
	va_list ap;
	int ret;

	va_start(ap, arg);
	ret = exec_list(path, arg, ap, false, false);
	va_end(ap);
	return ret;
}

KFT_EXPORT KFT_NOTRACE int execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	int ret;

	va_start(ap, arg);
	ret = exec_list(file, arg, ap, true, false);
	va_end(ap);
	return ret;
}

KFT_EXPORT KFT_NOTRACE int execle(const char *path, const char *arg, ...)
{
	va_list ap;
	int ret;

	va_start(ap, arg);
	ret = exec_list(path, arg, ap, false, true);
	va_end(ap);
	return ret;
}
