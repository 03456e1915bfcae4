// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../format/trace-format.h"
#include "switch-recorder.h"
#include "../format/trace-files.h"

#define RING_PAGES 64		/* data pages a CPU: a power of two */
#define BATCH 512		/* switches written at once */

struct ring {
	int fd;
	struct perf_event_mmap_page *meta;
	uint8_t *data;
	size_t size;		/* of data */
};

struct kft_switch_rec {
	struct ring *rings;
	int nrings;
	int out;
	uint64_t base;
	pthread_t thread;
	bool running;
	volatile bool stop;
	int wake[2];		/* a byte written wakes the reader to stop */
	unsigned long long lost;
	struct kft_switch batch[BATCH];
	size_t nbatch;
	char path[4096];
};

static void flush(struct kft_switch_rec *r)
{
	size_t len = r->nbatch * sizeof(*r->batch), done = 0;

	while (done < len) {
		ssize_t n = write(r->out, (char *)r->batch + done, len - done);

		if (n <= 0 && errno != EINTR)
			break;	/* a full disk: the switches stop there */
		if (n > 0)
			done += (size_t)n;
	}
	r->nbatch = 0;
}

/* Bytes [at, at + len) of the ring, which may wrap, into buf. */
static void copy_out(const struct ring *g, uint64_t at, void *buf, size_t len)
{
	size_t off = at & (g->size - 1), first = g->size - off < len ? g->size - off : len;

	memcpy(buf, g->data + off, first);
	memcpy((uint8_t *)buf + first, g->data, len - first);
}

/* The sample_id fields after a record's body: pid, tid, time, cpu. */
struct sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu, res;
};

static void drain(struct kft_switch_rec *r, struct ring *g)
{
	uint64_t head = __atomic_load_n(&g->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = g->meta->data_tail;
	uint8_t rec[256];

	while (tail < head) {
		struct perf_event_header h;

		copy_out(g, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size > sizeof(rec))
			break;	/* not a record we know: leave the rest */
		copy_out(g, tail, rec, h.size);
		if (h.type == PERF_RECORD_SWITCH && h.size >= sizeof(h) + sizeof(struct sample_id)) {
			struct sample_id id;
			struct kft_switch *s = &r->batch[r->nbatch];

			memcpy(&id, rec + sizeof(h), sizeof(id));
			s->ns = id.time > r->base ? id.time - r->base : 0;
			s->pid = id.pid;
			s->tid = id.tid;
			s->cpu = id.cpu;
			/* a task's own events do not say what ran instead */
			s->other_tid = KFT_SWITCH_UNKNOWN_TID;
			s->prio = s->other_prio = -1;
			s->flags = ((h.misc & PERF_RECORD_MISC_SWITCH_OUT) ? KFT_SWITCH_OUT : 0) |
				   ((h.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? KFT_SWITCH_PREEMPTED
										 : 0);
			if (++r->nbatch == BATCH)
				flush(r);
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
			uint64_t n;

			memcpy(&n, rec + sizeof(h) + 8, sizeof(n));
			r->lost += n;
		}
		tail += h.size;
	}
	__atomic_store_n(&g->meta->data_tail, tail, __ATOMIC_RELEASE);
}

/*
 * Drain the rings as they fill. A ring whose task has ended hangs up for
 * good, and poll would return at once for ever after (some 6,000 times
 * in the milliseconds kft took to stop it): it is polled no more, and the
 * rings are drained every 10 ms instead (a child may still write there),
 * until the stop's byte wakes the reader.
 */
static void *reader(void *arg)
{
	struct kft_switch_rec *r = arg;
	struct pollfd *fds = calloc((size_t)r->nrings + 1, sizeof(*fds));
	int live = r->nrings;

	for (int i = 0; fds && i < r->nrings; i++)
		fds[i] = (struct pollfd){ .fd = r->rings[i].fd, .events = POLLIN };
	if (fds)
		fds[r->nrings] = (struct pollfd){ .fd = r->wake[0], .events = POLLIN };
	while (!r->stop) {
		if (fds)
			poll(fds, (nfds_t)r->nrings + 1, live ? 100 : 10);
		else
			usleep(100000);
		for (int i = 0; i < r->nrings; i++) {
			drain(r, &r->rings[i]);
			if (fds && fds[i].fd >= 0 && r->wake[0] >= 0 &&
			    (fds[i].revents & (POLLHUP | POLLERR | POLLNVAL))) {
				fds[i].fd = -1;
				live--;
			}
		}
	}
	free(fds);
	return NULL;
}

static void close_rings(struct kft_switch_rec *r)
{
	for (int i = 0; i < r->nrings; i++) {
		munmap(r->rings[i].meta, r->rings[i].size + (size_t)sysconf(_SC_PAGESIZE));
		close(r->rings[i].fd);
	}
	free(r->rings);
	r->rings = NULL;
	r->nrings = 0;
}

/* One event on cpu following pid and what it starts, counting from its
 * exec, its ring mapped: 0, or the errno of what failed. */
static int open_ring(struct ring *g, pid_t pid, int cpu, char *why, size_t whysize)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU,
		.disabled = 1,
		.inherit = 1,
		.enable_on_exec = 1,
		.context_switch = 1,
		.sample_id_all = 1,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
		.watermark = 1,
		.wakeup_watermark = (uint32_t)(RING_PAGES * page / 4),
	};

	g->fd = (int)syscall(SYS_perf_event_open, &a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (g->fd < 0) {
		int e = errno;
		FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
		int level = 9;

		if (f) {
			if (fscanf(f, "%d", &level) != 1)
				level = 9;
			fclose(f);
		}
		if (e == EACCES || e == EPERM)
			snprintf(why, whysize, "perf_event_open: %s (kernel.perf_event_paranoid is %d; "
					       "2 or less lets a user watch their own processes)",
				 strerror(e), level);
		else
			snprintf(why, whysize, "perf_event_open: %s", strerror(e));
		return e;
	}
	g->size = RING_PAGES * page;
	g->meta = mmap(NULL, g->size + page, PROT_READ | PROT_WRITE, MAP_SHARED, g->fd, 0);
	if (g->meta == MAP_FAILED) {
		int e = errno;

		snprintf(why, whysize, "mapping the perf ring: %s", strerror(e));
		close(g->fd);
		return e;
	}
	g->data = (uint8_t *)g->meta + page;
	return 0;
}

struct kft_switch_rec *kft_switches_start(pid_t pid, const char *dir, char *why, size_t whysize)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	struct kft_switch_rec *r = calloc(1, sizeof(*r));

	if (!r || ncpu < 1 || !(r->rings = calloc((size_t)ncpu, sizeof(*r->rings)))) {
		snprintf(why, whysize, "out of memory");
		free(r);
		return NULL;
	}
	r->out = -1;
	r->wake[0] = r->wake[1] = -1;
	for (int cpu = 0; cpu < ncpu; cpu++) {
		int e = open_ring(&r->rings[r->nrings], pid, cpu, why, whysize);

		if (e == ENODEV)
			continue;	/* a CPU not online */
		if (e)
			goto fail;
		r->nrings++;
	}
	snprintf(r->path, sizeof(r->path), "%s/%s", dir, KFT_SWITCHES_FILE);
	if (!r->nrings) {
		snprintf(why, whysize, "no CPU to follow");
		goto fail;
	}
	r->out = open(r->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (r->out < 0) {
		snprintf(why, whysize, "%s: %s", r->path, strerror(errno));
		goto fail;
	}
	return r;
fail:
	if (r->out >= 0) {
		close(r->out);
		unlink(r->path);
	}
	close_rings(r);
	free(r);
	return NULL;
}

int kft_switches_begin(struct kft_switch_rec *r, uint64_t clock_base_ns, char *why,
		       size_t whysize)
{
	struct kft_switches_hdr hdr = { .magic = KFT_SWITCHES_MAGIC, .version = 1,
					.rec_size = sizeof(struct kft_switch),
					.clock_base_ns = clock_base_ns };

	r->base = clock_base_ns;
	if (pipe2(r->wake, O_CLOEXEC | O_NONBLOCK))
		r->wake[0] = r->wake[1] = -1;	/* then hung-up rings stay polled */
	if (write(r->out, &hdr, sizeof(hdr)) != (ssize_t)sizeof(hdr)) {
		snprintf(why, whysize, "writing the switches file: %s", strerror(errno));
		return -1;
	}
	if (pthread_create(&r->thread, NULL, reader, r)) {
		snprintf(why, whysize, "no thread to read them");
		return -1;
	}
	r->running = true;
	return 0;
}

void kft_switches_stop(struct kft_switch_rec *r, unsigned long long *lost)
{
	*lost = 0;
	if (!r)
		return;
	r->stop = true;
	if (r->running) {
		if (r->wake[1] >= 0 && write(r->wake[1], "", 1) < 0) {
			/* the reader wakes within 100 ms anyway */
		}
		pthread_join(r->thread, NULL);
	}
	if (r->wake[0] >= 0) {
		close(r->wake[0]);
		close(r->wake[1]);
	}
	for (int i = 0; i < r->nrings; i++)
		drain(r, &r->rings[i]);
	if (r->running) {
		flush(r);
		*lost = r->lost;
	}
	close(r->out);
	if (!r->running)
		unlink(r->path);	/* never begun: no header, no file */
	close_rings(r);
	free(r);
}
