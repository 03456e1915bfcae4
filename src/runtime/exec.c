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

/* Whether envp lacks kft's variables (environ has them). */
static KFT_NOTRACE bool lacks_ours(char *const envp[])
{
	return kft_rt.ready == 1 && getenv("LD_PRELOAD") && envp && !find(envp, "KFT_DIR");
}

/* Bytes for envp with kft's variables added, pointers and strings. */
static KFT_NOTRACE size_t ours_size(char *const envp[])
{
	const char *theirs = find(envp, "LD_PRELOAD"), *v;
	size_t n = 0, size;

	while (envp[n])
		n++;
	size = (n + 2 + sizeof(carried) / sizeof(carried[0])) * sizeof(char *);
	size += sizeof("LD_PRELOAD=") + strlen(getenv("LD_PRELOAD")) + (theirs ? strlen(theirs) + 1 : 0);
	for (size_t i = 0; i < sizeof(carried) / sizeof(carried[0]); i++)
		if ((v = getenv(carried[i])))
			size += strlen(carried[i]) + strlen(v) + 2;
	return size;
}

/*
 * envp with kft's variables added (LD_PRELOAD: ours first, then the
 * program's), laid out in buf (ours_size bytes, on the caller's stack:
 * a vfork child may be the caller, and must not call malloc).
 */
static KFT_NOTRACE char **with_ours(char *const envp[], char *buf)
{
	const char *theirs = find(envp, "LD_PRELOAD"), *v;
	size_t n = 0, k = 0;
	char **out = (char **)buf, *p;

	while (envp[n])
		n++;
	p = buf + (n + 2 + sizeof(carried) / sizeof(carried[0])) * sizeof(char *);
	out[k++] = p;
	p += sprintf(p, "LD_PRELOAD=%s%s%s", getenv("LD_PRELOAD"), theirs ? ":" : "",
		     theirs ? theirs : "") + 1;
	for (size_t i = 0; i < sizeof(carried) / sizeof(carried[0]); i++)
		if (!find(envp, carried[i]) && (v = getenv(carried[i]))) {
			out[k++] = p;
			p += sprintf(p, "%s=%s", carried[i], v) + 1;
		}
	for (size_t i = 0; i < n; i++)
		if (strncmp(envp[i], "LD_PRELOAD=", 11))
			out[k++] = envp[i];
	out[k] = NULL;
	return out;
}

/* env: the environment to pass on, envp or a copy on this frame's stack
 * (alloca kept out of any call's arguments) */
#define OUR_ENV(env, envp)							\
	char *env##_buf = lacks_ours(envp) ? __builtin_alloca(ours_size(envp)) : NULL;	\
	char **env = env##_buf ? with_ours(envp, env##_buf) : (char **)(envp)

KFT_EXPORT KFT_NOTRACE int execve(const char *path, char *const argv[], char *const envp[])
{
	execve_fn fn = (execve_fn)real("execve");
	struct sigaction old;
	bool held = ignore_sigprof(&old);
	OUR_ENV(env, envp);
	int ret = fn(path, argv, env);

	if (held)
		sigaction(SIGPROF, &old, NULL);
	return ret;
}

KFT_EXPORT KFT_NOTRACE int execvpe(const char *file, char *const argv[], char *const envp[])
{
	execvpe_fn fn = (execvpe_fn)real("execvpe");
	struct sigaction old;
	bool held = ignore_sigprof(&old);
	OUR_ENV(env, envp);
	int ret = fn(file, argv, env);

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
		OUR_ENV(env, envp);						\
										\
		return fn(pid, path, actions, attr, argv, env);			\
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
