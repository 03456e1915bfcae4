// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "../common/grow.h"
#include "plan-server.h"

/* A file asked about, by its identity, and the answer it got. */
struct known {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	char answer;
};

struct kft_plan_server {
	pthread_t tid;
	int sock, stop[2];
	char *dir;
	const struct kft_patch_plans *first;
	const struct kft_hook_needs *needs;
	kft_plan_said said;
	void *ctx;
	struct kft_patch_plan *added;
	size_t nadded, added_cap;
	struct known *known;
	size_t nknown, known_cap;
};

static bool same_file(const struct known *k, const struct stat *st)
{
	return k->dev == st->st_dev && k->ino == st->st_ino && k->size == st->st_size &&
	       k->mtime.tv_sec == st->st_mtim.tv_sec && k->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

/* The plan file anew: the first plans, then those added. */
static int write_plans(struct kft_plan_server *s, struct kft_error *err)
{
	size_t nfirst = s->first ? s->first->n : 0, n = nfirst + s->nadded;
	struct kft_patch_plan *all = malloc(n * sizeof(*all));
	int ret;

	if (!all)
		return kft_error_set(err, "out of memory");
	/* (shallow copies: written, not kept) */
	if (nfirst)
		memcpy(all, s->first->v, nfirst * sizeof(*all));
	memcpy(all + nfirst, s->added, s->nadded * sizeof(*all));
	ret = kft_patch_plan_write(all, n, s->dir, err);
	free(all);
	return ret;
}

/* The answer for the program at path: planned and added (KFT_PLAN_ADDED)
 * or not (KFT_PLAN_NONE). */
static char plan_program(struct kft_plan_server *s, const char *path)
{
	struct kft_patch_plan plan;
	struct kft_error err;
	struct known *k;
	struct stat st;

	if (stat(path, &st))
		return KFT_PLAN_NONE;
	for (size_t i = 0; i < s->nknown; i++)
		if (same_file(&s->known[i], &st))
			return s->known[i].answer;
	if (kft_grow((void **)&s->known, s->nknown, &s->known_cap, sizeof(*s->known), 16) ||
	    kft_grow((void **)&s->added, s->nadded, &s->added_cap, sizeof(*s->added), 16))
		return KFT_PLAN_NONE;
	k = &s->known[s->nknown++];
	k->dev = st.st_dev;
	k->ino = st.st_ino;
	k->size = st.st_size;
	k->mtime = st.st_mtim;
	k->answer = KFT_PLAN_NONE;
	if (kft_patch_plan_make(&plan, path, s->needs, &err)) {
		/* (an instrumented program calls the hooks itself) */
		if (!plan.instrumented)
			fprintf(stderr, "kft: %s is not traced: %s\n", path, err.msg);
		kft_patch_plan_free(&plan);
		return KFT_PLAN_NONE;
	}
	s->added[s->nadded++] = plan;
	if (s->said)
		s->said(s->ctx, &plan);
	if (!plan.nfuncs)
		return KFT_PLAN_NONE;
	if (write_plans(s, &err)) {
		fprintf(stderr, "kft: %s is not traced: %s\n", path, err.msg);
		return KFT_PLAN_NONE;
	}
	k->answer = KFT_PLAN_ADDED;
	return KFT_PLAN_ADDED;
}

/* One process's question: a path and its NUL, then the answer. */
static void answer(struct kft_plan_server *s, int conn)
{
	struct timeval limit = { .tv_sec = 5 };
	char path[PATH_MAX], reply;
	size_t len = 0;
	ssize_t n;

	/* (a process killed while it asks leaves nothing to wait for) */
	setsockopt(conn, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
	while (len < sizeof(path) && (n = read(conn, path + len, sizeof(path) - len)) > 0) {
		len += (size_t)n;
		if (memchr(path, '\0', len))
			break;
	}
	if (!len || !memchr(path, '\0', len))
		return;
	reply = plan_program(s, path);
	if (write(conn, &reply, 1) != 1)
		return;	/* (it did not wait) */
}

static void *serve(void *arg)
{
	struct kft_plan_server *s = arg;
	struct pollfd fds[2] = { { .fd = s->sock, .events = POLLIN },
				 { .fd = s->stop[0], .events = POLLIN } };

	for (;;) {
		int conn;

		if (poll(fds, 2, -1) < 0 && errno != EINTR)
			break;
		if (fds[1].revents)
			break;
		if (!(fds[0].revents & POLLIN))
			continue;
		conn = accept4(s->sock, NULL, NULL, SOCK_CLOEXEC);
		if (conn < 0)
			continue;
		answer(s, conn);
		close(conn);
	}
	return NULL;
}

struct kft_plan_server *kft_plan_server_start(const char *dir, const struct kft_patch_plans *first,
					      const struct kft_hook_needs *needs,
					      kft_plan_said said, void *ctx,
					      struct kft_error *err)
{
	struct kft_plan_server *s = calloc(1, sizeof(*s));
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int dirfd = -1;

	if (!s || !(s->dir = strdup(dir))) {
		free(s);
		kft_error_set(err, "out of memory");
		return NULL;
	}
	s->sock = s->stop[0] = s->stop[1] = -1;
	s->first = first;
	s->needs = needs;
	s->said = said;
	s->ctx = ctx;
	/* (the directory's path may be longer than a socket's address
	 * holds: bound through the directory's descriptor) */
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		goto fail;
	unlinkat(dirfd, KFT_PLAN_SOCKET, 0);
	snprintf(addr.sun_path, sizeof(addr.sun_path), "/proc/self/fd/%d/%s", dirfd,
		 KFT_PLAN_SOCKET);
	s->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->sock < 0 || bind(s->sock, (struct sockaddr *)&addr, sizeof(addr)) ||
	    listen(s->sock, 64) || pipe2(s->stop, O_CLOEXEC))
		goto fail;
	close(dirfd);
	if (pthread_create(&s->tid, NULL, serve, s)) {
		errno = EAGAIN;
		dirfd = -1;
		goto fail;
	}
	return s;
fail:
	kft_error_set(err, "%s/%s: %s", dir, KFT_PLAN_SOCKET, strerror(errno));
	if (dirfd >= 0)
		close(dirfd);
	if (s->sock >= 0)
		close(s->sock);
	for (int i = 0; i < 2; i++)
		if (s->stop[i] >= 0)
			close(s->stop[i]);
	free(s->dir);
	free(s);
	return NULL;
}

void kft_plan_server_stop(struct kft_plan_server *s)
{
	char path[PATH_MAX];

	if (!s)
		return;
	if (write(s->stop[1], "", 1) == 1)
		pthread_join(s->tid, NULL);
	close(s->sock);
	close(s->stop[0]);
	close(s->stop[1]);
	snprintf(path, sizeof(path), "%s/%s", s->dir, KFT_PLAN_SOCKET);
	unlink(path);
	for (size_t i = 0; i < s->nadded; i++)
		kft_patch_plan_free(&s->added[i]);
	free(s->added);
	free(s->known);
	free(s->dir);
	free(s);
}
