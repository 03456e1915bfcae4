// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live-trace.h"
#include "thread-records.h"
#include "trace-files.h"

/* A file cut down under our mapping, while a look reads it. */
static sigjmp_buf cut_down;
static volatile sig_atomic_t reading;

static void on_bus(int sig)
{
	if (reading)
		siglongjmp(cut_down, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

void kft_live_catch_cut_files(void)
{
	struct sigaction sa = { .sa_handler = on_bus };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

/* A record's raw page given back after compression: all zeros. */
static bool given_back(const struct kft_thread_file *th, uint64_t j)
{
	const struct kft_rec *r;

	if (j < th->zcount)
		return false;
	r = kft_thread_raw(th, j);
	return !r->entry_depth && !r->dur && !r->site_flags;
}

/* The markers appended since the last look, in the order they were
 * written (the trace's own list is sorted by time, which a marker
 * written late could enter anywhere in). */
static void read_marks(struct kft_live_trace *lt, const struct kft_trace *tr)
{
	char path[4200];
	struct kft_mark m;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", lt->dir, KFT_MARKS_FILE);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	while (pread(fd, &m, sizeof(m), (off_t)(lt->marks_read * sizeof(m))) ==
	       (ssize_t)sizeof(m)) {
		if (m.len > KFT_MARK_TEXT)
			m.len = KFT_MARK_TEXT;
		lt->ops.mark(lt->ops.ctx, tr, &m);
		lt->marks_read++;
	}
	close(fd);
}

static void give(struct kft_live_trace *lt, const struct kft_trace *tr,
		 const struct kft_thread_file *th, uint64_t i)
{
	struct kft_call c;

	/* indented as recorded: the nesting is not built here */
	kft_thread_call(th, i, KFT_DEPTH_RECORDED, &c);
	lt->ops.call(lt->ops.ctx, tr, &c);
}

/* What the thread file holds past where we were: 0, or -1 out of memory.
 * With last, the calls still open come too. */
static int read_thread(struct kft_live_trace *lt, const struct kft_trace *tr,
		       const struct kft_thread_file *th, bool last, bool *again)
{
	struct kft_read_progress *s = kft_read_progress_of(&lt->seen, th->name);
	uint64_t oldest = kft_thread_oldest(th), end = oldest + th->nrecs;

	if (!s)
		return -1;
	if (s->next < oldest)
		s->next = oldest;	/* a ring overwrote what we had not read */
	for (; s->next < end; s->next++) {
		if (given_back(th, th->first + (s->next - oldest))) {
			*again = true;
			break;
		}
		give(lt, tr, th, s->next - oldest);
	}
	if (last && s->next == end) {
		for (uint64_t f = 0; f < th->nframes; f++)
			if (th->frames[f].flags & KFT_FRAME_LOGGED)
				give(lt, tr, th, th->nrecs + f);
		s->next = UINT64_MAX;	/* done */
	}
	return 0;
}

int kft_live_look(struct kft_live_trace *lt, bool last, bool *again)
{
	struct kft_trace tr;
	struct kft_error err;
	volatile int ret = 0;

	if (kft_trace_open(&tr, lt->dir, &err))
		return 0;	/* no thread file yet, say: wait */
	if (tr.ctl.ended_ns && !last) {
		kft_trace_close(&tr);
		return 1;
	}
	lt->ops.look(lt->ops.ctx);
	if (sigsetjmp(cut_down, 1)) {
		*again = true;
		ret = 0;
	} else {
		reading = 1;
		ret = tr.ctl.ended_ns ? 1 : 0;
		read_marks(lt, &tr);
		for (size_t i = 0; i < tr.nthreads && !*lt->stop; i++)
			if (read_thread(lt, &tr, &tr.threads[i], last, again)) {
				ret = -1;
				break;
			}
	}
	reading = 0;
	kft_trace_close(&tr);
	return ret;
}

void kft_live_wait_finished(const struct kft_live_trace *lt)
{
	int fd = open(lt->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	while (flock(fd, LOCK_SH) && errno == EINTR && !*lt->stop)
		;
	close(fd);
}

uint64_t kft_live_maps_signature(const char *dir)
{
	uint64_t sig = 0;
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if ((!strncmp(de->d_name, KFT_MAPS_PREFIX, strlen(KFT_MAPS_PREFIX)) ||
		     !strcmp(de->d_name, KFT_SYMBOLS_FILE)) &&
		    !fstatat(dirfd(d), de->d_name, &st, 0))
			sig = sig * 1000003 + (uint64_t)st.st_size + 1;
	closedir(d);
	return sig;
}

void kft_live_free(struct kft_live_trace *lt)
{
	kft_read_progress_free(&lt->seen);
}
