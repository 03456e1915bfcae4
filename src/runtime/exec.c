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
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdarg.h>
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

KFT_EXPORT KFT_NOTRACE int execve(const char *path, char *const argv[], char *const envp[])
{
	execve_fn fn = (execve_fn)real("execve");
	struct sigaction old;
	bool held = ignore_sigprof(&old);
	int ret = fn(path, argv, envp);

	if (held)
		sigaction(SIGPROF, &old, NULL);
	return ret;
}

KFT_EXPORT KFT_NOTRACE int execvpe(const char *file, char *const argv[], char *const envp[])
{
	execvpe_fn fn = (execvpe_fn)real("execvpe");
	struct sigaction old;
	bool held = ignore_sigprof(&old);
	int ret = fn(file, argv, envp);

	if (held)
		sigaction(SIGPROF, &old, NULL);
	return ret;
}

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
