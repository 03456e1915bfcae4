// SPDX-License-Identifier: GPL-2.0-only
/*
 * The longest call of a function, kept as the program runs (see
 * latency-keeper.h). Every 20 ms the thread reads the records the rings
 * gained since its last look (a ring that went round meanwhile has lost
 * some: rings are sized for far more than 20 ms of calls), and names each
 * new function address once. A longer call of FUNC makes a new copy
 * straight away, before the rings overwrite its window; the link moves to
 * it in one rename, and the copy before it goes only with the next one, so
 * a reader that opened the old copy can finish.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/addrmap.h"
#include "../common/mono-clock.h"
#include "../format/read-progress.h"
#include "../format/reader.h"
#include "../format/thread-records.h"
#include "../symbols/symbolizer.h"
#include "latency-keeper.h"
#include "../format/trace-files.h"
#include "trace-dir.h"

#define POLL_MS 20

struct kft_latency_keeper {
	char *dir, *func;
	pthread_t thread;
	int stop;			/* atomic */
	struct kft_read_progress_set read;
	struct kft_addrmap known;	/* (image, function) -> 1: func, 0: another */
	int64_t longest;		/* ns; -1 before the first call */
	unsigned int copies;		/* latency.1, .2, ... made */
	bool failed;			/* a copy could not be made: why */
	struct kft_error why;
};

/* The first copy that failed is the one said. */
static void copy_failed(struct kft_latency_keeper *k, const char *what)
{
	if (!k->failed)
		kft_error_set(&k->why, "latency: %s: %s", what, strerror(errno));
	k->failed = true;
}

/* Whether the function at addr of image is FUNC, as kd names it (its
 * name, or without the " [file.c]" that tells static functions apart). */
static bool is_func(struct kft_latency_keeper *k, struct kft_symbolizer **sz,
		    const struct kft_trace *tr, uint32_t session, uint64_t ns, uint64_t addr)
{
	uint32_t *v = kft_addrmap_slot(&k->known, session, addr);
	char name[512];
	size_t n = strlen(k->func);

	if (!v)
		return false;
	if (*v != KFT_ADDRMAP_NONE)
		return *v;
	if (!*sz) {
		struct kft_error err;

		*sz = kft_symbolizer_new(tr->dir, &err);
		if (!*sz)
			return false;
		v = kft_addrmap_slot(&k->known, session, addr);
		if (!v)
			return false;
	}
	kft_symbol_text(*sz, kft_symbolizer_image(*sz, session, ns), addr, false, name,
			sizeof(name));
	*v = !strncmp(name, k->func, n) && (!name[n] || !strncmp(name + n, " [", 2));
	return *v;
}

/* Bytes [at, end) of in into out, at the same place. */
static int copy_range(int in, int out, off_t at, off_t end)
{
	char buf[1 << 16];

	while (at < end) {
		size_t want = end - at < (off_t)sizeof(buf) ? (size_t)(end - at) : sizeof(buf);
		ssize_t n = pread(in, buf, want, at);

		if (n <= 0)
			return n < 0 ? -1 : 0;	/* (cut short meanwhile: what is there) */
		if (pwrite(out, buf, (size_t)n, at) != n)
			return -1;
		at += n;
	}
	return 0;
}

/* A file of the trace into to_dir, its holes left holes: a thread file is
 * mostly room its shadow stack and site table never used, and a copy
 * that wrote it out as zeros (some 70 times the records of a small
 * ring) could take longer than the ring takes to go round. */
static int copy_file(int from_dir, int to_dir, const char *name)
{
	int in = openat(from_dir, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW), out, ret = 0;
	struct stat st;
	off_t at = 0;

	if (in < 0)
		return errno == ENOENT ? 0 : -1;
	out = openat(to_dir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out < 0 || fstat(in, &st)) {
		close(in);
		if (out >= 0)
			close(out);
		return -1;
	}
	while (at < st.st_size && !ret) {
		off_t data = lseek(in, at, SEEK_DATA), hole;

		if (data < 0 && errno == ENXIO)
			break;		/* nothing but a hole from at on */
		if (data < 0) {
			data = at;	/* a file system that cannot tell: all of it */
			hole = st.st_size;
		} else if ((hole = lseek(in, data, SEEK_HOLE)) < 0 || hole > st.st_size) {
			hole = st.st_size;
		}
		ret = copy_range(in, out, data, hole);
		at = hole;
	}
	if (!ret && ftruncate(out, st.st_size))
		ret = -1;
	close(in);
	return close(out) || ret ? -1 : 0;
}

/* Whether a file of the trace goes into a copy: what a reader needs. */
static bool copied(const char *n)
{
	size_t len = strlen(n);

	return !strcmp(n, KFT_CONTROL_FILE) || !strcmp(n, KFT_CONFIG_FILE) ||
	       !strcmp(n, KFT_INFO_FILE) || !strcmp(n, KFT_SWITCHES_FILE) ||
	       !strcmp(n, KFT_MARKS_FILE) || !strcmp(n, KFT_ENUMS_FILE) ||
	       !strncmp(n, KFT_MAPS_PREFIX, strlen(KFT_MAPS_PREFIX)) ||
	       (!strncmp(n, "thread-", 7) && len > 5 &&
		(!strcmp(n + len - 4, ".kft") || !strcmp(n + len - 5, ".args")));
}

/* Whether record j (kft_thread_oldest counts them) was whole when read:
 * the writer may have gone round the ring onto it since (its header is
 * mapped as it writes it), or be writing it now. */
static bool still_there(const struct kft_thread_file *th, uint64_t j)
{
	const struct kft_thread_hdr *live = th->map;
	uint64_t head;

	if (!th->hdr.capacity || !live)
		return true;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	head = __atomic_load_n(&live->head, __ATOMIC_ACQUIRE);
	return head + 16 <= j + th->hdr.capacity;
}

/* The trace as it stands into latency.N, and the link to it, if record j
 * of th is still there once the copy is made (a small ring on a busy
 * machine may have written over it meanwhile: that copy goes, and the
 * one before stays the one kept): whether it was kept. */
static bool make_copy(struct kft_latency_keeper *k, const struct kft_thread_file *th, uint64_t j)
{
	char path[4200], name[64], link[4200], tmp[4200];
	unsigned int n = k->copies + 1;
	int from, to = -1;
	struct dirent *de;
	DIR *d;
	bool ok = true, kept = false;

	snprintf(path, sizeof(path), "%s/latency.%u", k->dir, n);
	from = open(k->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (from < 0 || mkdir(path, 0700) || (to = open(path, O_RDONLY | O_DIRECTORY |
							     O_CLOEXEC)) < 0 ||
	    !(d = fdopendir(dup(from)))) {
		copy_failed(k, path);
		goto out;
	}
	while ((de = readdir(d)))
		if (copied(de->d_name) && copy_file(from, to, de->d_name))
			ok = false;
	closedir(d);
	if (!ok) {
		char what[4300];

		snprintf(what, sizeof(what), "copying the trace into %s", path);
		copy_failed(k, what);
		goto out;
	}
	snprintf(name, sizeof(name), "latency.%u", n);
	if (!still_there(th, j)) {
		kft_trace_dir_remove_latency_copy(from, name);
		goto out;
	}
	/* the link moves in one step */
	snprintf(link, sizeof(link), "%s/%s", k->dir, KFT_LATENCY_LINK);
	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", k->dir, KFT_LATENCY_LINK);
	unlink(tmp);
	if (symlink(name, tmp) || rename(tmp, link)) {
		copy_failed(k, link);
		goto out;
	}
	k->copies = n;
	kept = true;
	if (n > 2) {
		snprintf(name, sizeof(name), "latency.%u", n - 2);
		kft_trace_dir_remove_latency_copy(from, name);
	}
out:
	if (to >= 0)
		close(to);
	if (from >= 0)
		close(from);
	return kept;
}

/* The calls that ended since the last look; a copy if one of them is the
 * longest call of FUNC yet. */
static void look(struct kft_latency_keeper *k)
{
	struct kft_symbolizer *sz = NULL;
	struct kft_trace tr;
	struct kft_error err;
	int64_t longest = k->longest;
	const struct kft_thread_file *where = NULL;
	uint64_t at = 0;

	if (kft_trace_open_as(&tr, k->dir, KFT_OPEN_NO_ARGS, &err))
		return;		/* no thread file yet */
	for (size_t i = 0; i < tr.nthreads; i++) {
		const struct kft_thread_file *th = &tr.threads[i];
		struct kft_read_progress *r = kft_read_progress_of(&k->read, th->name);
		uint64_t oldest = kft_thread_oldest(th), end = oldest + th->nrecs;

		if (!r)
			break;
		if (r->next < oldest)
			r->next = oldest;	/* the ring went round: those are gone */
		for (; r->next < end; r->next++) {
			struct kft_rec_data rec;
			int64_t dur;

			kft_thread_rec(th, r->next - oldest, &rec);
			dur = kft_dur_decode(rec.dur);
			if (dur > longest && still_there(th, r->next) &&
			    is_func(k, &sz, &tr, th->hdr.session, rec.entry_ns, rec.func)) {
				longest = dur;
				where = th;
				at = r->next;
			}
		}
	}
	if (where && make_copy(k, where, at))
		k->longest = longest;
	kft_symbolizer_free(sz);
	kft_trace_close(&tr);
}

static void *keep(void *arg)
{
	struct kft_latency_keeper *k = arg;

	while (!__atomic_load_n(&k->stop, __ATOMIC_ACQUIRE)) {
		look(k);
		kft_nap_ms(POLL_MS);
	}
	return NULL;
}

struct kft_latency_keeper *kft_latency_keeper_start(const char *dir, const char *func,
						    struct kft_error *err)
{
	struct kft_latency_keeper *k = calloc(1, sizeof(*k));

	if (!k || !(k->dir = strdup(dir)) || !(k->func = strdup(func))) {
		kft_error_set(err, "out of memory");
		goto fail;
	}
	k->longest = -1;
	if (kft_trace_dir_write(dir, KFT_LATENCY_FUNC_FILE, func, strlen(func), err))
		goto fail;
	if (pthread_create(&k->thread, NULL, keep, k)) {
		kft_error_set(err, "latency: cannot start a thread");
		goto fail;
	}
	return k;
fail:
	if (k) {
		free(k->dir);
		free(k->func);
	}
	free(k);
	return NULL;
}

int kft_latency_keeper_stop(struct kft_latency_keeper *k, char **copy, struct kft_error *err)
{
	int ret;

	*copy = NULL;
	if (!k)
		return 0;
	__atomic_store_n(&k->stop, 1, __ATOMIC_RELEASE);
	pthread_join(k->thread, NULL);
	look(k);
	if (k->copies && asprintf(copy, "%s/latency.%u", k->dir, k->copies) < 0)
		*copy = NULL;
	ret = k->failed ? -1 : 0;
	if (k->failed)
		*err = k->why;
	kft_read_progress_free(&k->read);
	kft_addrmap_free(&k->known);
	free(k->dir);
	free(k->func);
	free(k);
	return ret;
}
