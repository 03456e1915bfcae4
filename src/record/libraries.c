// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which shared libraries a program loads at start is for its dynamic
 * linker to say: the search (RUNPATH, LD_LIBRARY_PATH, ld.so.cache,
 * hwcaps directories) is its own. `ld.so --list PROG`, which is what ldd
 * runs, maps them and prints where each was found, and runs none of
 * their code nor the program's.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/grow.h"
#include "../symbols/elf-symtab.h"
#include "libraries.h"
#include "target.h"

static int add(struct kft_lib_list *list, const char *name, const char *path)
{
	char real[PATH_MAX];

	if (!realpath(path, real))
		return 0;	/* gone since: not one to patch */
	for (size_t i = 0; i < list->n; i++)
		if (!strcmp(list->v[i].path, real))
			return 0;
	if (kft_grow((void **)&list->v, list->n, &list->cap, sizeof(*list->v), 16))
		return -1;
	list->v[list->n].name = strdup(name);
	list->v[list->n].path = strdup(real);
	if (!list->v[list->n].name || !list->v[list->n].path) {
		free(list->v[list->n].name);
		free(list->v[list->n].path);
		return -1;
	}
	list->n++;
	return 0;
}

/* One line of the list: "\tNAME => PATH (0xADDR)" or "\tPATH (0xADDR)";
 * the vDSO and "NAME => not found" name no file. */
static int parse_line(struct kft_lib_list *list, char *line)
{
	char *arrow = strstr(line, " => "), *name = line + strspn(line, " \t"), *path, *end;

	path = arrow ? arrow + 4 : name;
	end = strstr(path, " (0x");
	if (!end || *path != '/')
		return 0;
	*end = '\0';
	if (arrow)
		*arrow = '\0';
	return add(list, arrow ? name : strrchr(path, '/') + 1, path);
}

/* Run interp --list path and read what it prints. */
static int list_with(const char *interp, const char *path, struct kft_lib_list *out,
		     struct kft_error *err)
{
	char *text = NULL;
	size_t len = 0, cap = 0;
	int fds[2], status, ret = 0;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return kft_error_set(err, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return kft_error_set(err, "fork: %s", strerror(errno));
	}
	if (!pid) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (dup2(fds[1], STDOUT_FILENO) < 0 || null < 0 || dup2(null, STDERR_FILENO) < 0)
			_exit(127);
		execl(interp, interp, "--list", path, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		ssize_t n;

		if (kft_grow((void **)&text, len + 1, &cap, 1, 4096)) {
			ret = kft_error_set(err, "out of memory");
			break;
		}
		n = read(fds[0], text + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!ret && len) {
		text[len] = '\0';
		for (char *line = strtok(text, "\n"); line && !ret; line = strtok(NULL, "\n"))
			if (parse_line(out, line))
				ret = kft_error_set(err, "out of memory");
	} else if (!ret) {
		ret = kft_error_set(err, "%s: its dynamic linker %s would not list its libraries",
				    path, interp);
	}
	free(text);
	return ret;
}

/* path's dynamic linker, into interp ("" for a static program). */
static int interpreter_of(const char *path, char *interp, size_t size, struct kft_error *err)
{
	struct kft_elf elf;

	if (kft_elf_open_headers(&elf, path, err))
		return -1;
	snprintf(interp, size, "%s", elf.interp);
	kft_elf_close(&elf);
	return 0;
}

int kft_libraries_of(const char *path, struct kft_lib_list *out, struct kft_error *err)
{
	char interp[256];

	memset(out, 0, sizeof(*out));
	if (interpreter_of(path, interp, sizeof(interp), err))
		return -1;
	if (!*interp)
		return 0;
	if (list_with(interp, path, out, err)) {
		kft_lib_list_free(out);
		return -1;
	}
	return 0;
}

void kft_lib_list_free(struct kft_lib_list *list)
{
	for (size_t i = 0; i < list->n; i++) {
		free(list->v[i].name);
		free(list->v[i].path);
	}
	free(list->v);
	memset(list, 0, sizeof(*list));
}

static bool names(const char *pattern, const struct kft_loaded_lib *lib)
{
	char real[PATH_MAX];

	if (strchr(pattern, '/'))
		return realpath(pattern, real) && !strcmp(real, lib->path);
	return !fnmatch(pattern, lib->name, 0) || !fnmatch(pattern, strrchr(lib->path, '/') + 1, 0);
}

static bool listed(const struct kft_lib_list *list, const char *path)
{
	for (size_t i = 0; i < list->n; i++)
		if (!strcmp(list->v[i].path, path))
			return true;
	return false;
}

/* "a, b, c": the names of list, for an error. */
static const char *names_of(const struct kft_lib_list *list, char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < list->n && at < size; i++)
		at += (size_t)snprintf(buf + at, size - at, "%s%s", i ? ", " : "", list->v[i].name);
	return list->n ? buf : "none";
}

struct mapped {
	struct kft_lib_list *list;
	const char *prog;
	int oom;
};

static int add_mapped(struct kft_mapping *m, void *arg)
{
	struct mapped *a = arg;

	if (m->offset || m->deleted || m->path[0] != '/' || !strcmp(m->path, a->prog) ||
	    !strstr(strrchr(m->path, '/'), ".so"))
		return 0;
	a->oom = add(a->list, strrchr(m->path, '/') + 1, m->path);
	return a->oom;
}

int kft_libraries_mapped(pid_t pid, const char *prog, struct kft_lib_list *out,
			 struct kft_error *err)
{
	struct mapped a = { out, prog, 0 };

	memset(out, 0, sizeof(*out));
	if (kft_each_mapping(pid, add_mapped, &a) < 0 && !a.oom) {
		kft_lib_list_free(out);
		return kft_error_set(err, "process %d: its map cannot be read: %s", (int)pid,
				     strerror(errno));
	}
	if (a.oom) {
		kft_lib_list_free(out);
		return kft_error_set(err, "out of memory");
	}
	return 0;
}

static int choose(const struct kft_lib_list *all, const struct kft_lib_list *own,
		  const char *prog, bool started, char *const *patterns, size_t npatterns,
		  struct kft_lib_list *out, struct kft_error *err)
{
	char buf[1024], real[PATH_MAX];

	for (size_t p = 0; p < npatterns; p++) {
		const struct kft_loaded_lib *refused = NULL;
		size_t found = 0;

		for (size_t i = 0; i < all->n; i++) {
			if (!names(patterns[p], &all->v[i]))
				continue;
			if (listed(own, all->v[i].path)) {
				refused = &all->v[i];
				continue;
			}
			if (add(out, all->v[i].name, all->v[i].path))
				return kft_error_set(err, "out of memory");
			found++;
		}
		/* a path none of those is: a library it opens later */
		if (!found && !refused && started && strchr(patterns[p], '/') &&
		    realpath(patterns[p], real) && !listed(own, real)) {
			if (add(out, strrchr(real, '/') + 1, real))
				return kft_error_set(err, "out of memory");
			found++;
		}
		if (!found && refused)
			return kft_error_set(err, "record: --lib %s: %s is one that kft's runtime (libkft.so) "
					     "itself runs on: it cannot be patched", patterns[p],
					     refused->name);
		if (!found && started)
			return kft_error_set(err, "record: --lib %s: %s loads no such library at start "
					     "(it loads %s; name one it opens later, with dlopen, by its "
					     "path)",
					     patterns[p], prog,
					     names_of(all, buf, sizeof(buf)));
		if (!found)
			return kft_error_set(err, "record: --lib %s: the process has no such library "
					     "loaded (it has %s)", patterns[p],
					     names_of(all, buf, sizeof(buf)));
	}
	return 0;
}

int kft_libraries_chosen(const struct kft_lib_list *all, const char *prog, bool started,
			 const char *runtime, char *const *patterns, size_t npatterns,
			 struct kft_lib_list *out, struct kft_error *err)
{
	struct kft_lib_list own = { 0 };
	char interp[256];
	int ret;

	memset(out, 0, sizeof(*out));
	ret = interpreter_of(prog, interp, sizeof(interp), err);
	/* the runtime's own, as the same dynamic linker finds them, and
	 * the runtime itself */
	if (!ret && *interp && !(ret = list_with(interp, runtime, &own, err)) &&
	    add(&own, runtime, runtime))
		ret = kft_error_set(err, "out of memory");
	if (!ret)
		ret = choose(all, &own, prog, started, patterns, npatterns, out, err);
	if (ret)
		kft_lib_list_free(out);
	kft_lib_list_free(&own);
	return ret;
}
