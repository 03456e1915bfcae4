// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "switches.h"
#include "trace-format.h"
#include "trace-files.h"

static int by_thread_time(const void *a, const void *b)
{
	const struct kft_switch *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	/* at one time, out before in */
	return (int)(y->flags & KFT_SWITCH_OUT) - (int)(x->flags & KFT_SWITCH_OUT);
}

static int by_woken_time(const void *a, const void *b)
{
	const struct kft_wakeup *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (x->ns > y->ns) - (x->ns < y->ns);
}

/* The wakeups out of v, thread by thread; n becomes the switches left. */
static int take_wakeups(struct kft_switches *sw, struct kft_switch *v, size_t *n)
{
	size_t kept = 0;

	sw->wakeups = malloc((*n ? *n : 1) * sizeof(*sw->wakeups));
	if (!sw->wakeups)
		return -1;
	for (size_t i = 0; i < *n; i++) {
		if (v[i].flags & KFT_SWITCH_WAKEUP)
			sw->wakeups[sw->nwakeups++] = (struct kft_wakeup){
				v[i].ns, v[i].tid, v[i].other_tid, v[i].cpu, v[i].prio,
				v[i].other_prio
			};
		else
			v[kept++] = v[i];
	}
	*n = kept;
	qsort(sw->wakeups, sw->nwakeups, sizeof(*sw->wakeups), by_woken_time);
	return 0;
}

/* The spans off the CPU: each switch out to its thread's next switch in
 * (a last switch out, as the thread ended, has none). */
static int make_spans(struct kft_switches *sw, struct kft_switch *v, size_t n)
{
	if (take_wakeups(sw, v, &n))
		return -1;
	qsort(v, n, sizeof(*v), by_thread_time);
	sw->spans = calloc(n ? n : 1, sizeof(*sw->spans));
	sw->before = calloc(n ? n : 1, sizeof(*sw->before));
	sw->threads = calloc(n ? n : 1, sizeof(*sw->threads));
	if (!sw->spans || !sw->before || !sw->threads)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct kft_switch_thread *t = sw->nthreads ? &sw->threads[sw->nthreads - 1] : NULL;

		if (!t || t->tid != v[i].tid) {
			t = &sw->threads[sw->nthreads++];
			t->tid = v[i].tid;
			t->first = sw->nspans;
			t->n = 0;
			t->cpu = v[i].cpu;
		}
		if (!(v[i].flags & KFT_SWITCH_OUT) || i + 1 == n || v[i + 1].tid != v[i].tid ||
		    (v[i + 1].flags & KFT_SWITCH_OUT))
			continue;
		sw->before[sw->nspans] = t->n ? sw->before[sw->nspans - 1] +
							sw->spans[sw->nspans - 1].to_ns -
							sw->spans[sw->nspans - 1].from_ns
					      : 0;
		sw->spans[sw->nspans++] = (struct kft_offcpu){
			.from_ns = v[i].ns,
			.to_ns = v[i + 1].ns,
			.preempted = (v[i].flags & KFT_SWITCH_PREEMPTED) != 0,
			.state = (v[i].flags & KFT_SWITCH_PREEMPTED) ? 'R'
				 : (v[i].flags & KFT_SWITCH_STATE_D) ? 'D' : 'S',
			.prio = v[i].prio,
			.to_tid = v[i].other_tid,
			.to_prio = v[i].other_prio,
			.from_tid = v[i + 1].other_tid,
			.from_prio = v[i + 1].other_prio,
			.from_state = v[i + 1].other_tid == KFT_SWITCH_UNKNOWN_TID ? '?'
				      : (v[i + 1].flags & KFT_SWITCH_PREEMPTED) ? 'R'
				      : (v[i + 1].flags & KFT_SWITCH_STATE_D) ? 'D' : 'S',
			.cpu_out = v[i].cpu,
			.cpu_in = v[i + 1].cpu,
		};
		t->n++;
	}
	return 0;
}

static const struct kft_switch_thread *thread_of(const struct kft_switches *sw, uint32_t tid);

/* sched_wakeup does not say the waker's priority; its own switches do. */
static void name_waker_prios(struct kft_switches *sw)
{
	for (size_t i = 0; i < sw->nwakeups; i++) {
		struct kft_wakeup *w = &sw->wakeups[i];
		const struct kft_switch_thread *t = w->waker_prio < 0 ? thread_of(sw, w->waker)
								       : NULL;

		if (t && t->n)
			w->waker_prio = sw->spans[t->first].prio;
	}
}

int kft_switches_load(struct kft_switches *sw, const char *dir, struct kft_error *err)
{
	struct kft_switches_hdr hdr;
	struct kft_switch *v = NULL;
	char path[4096];
	struct stat st;
	size_t n;
	int fd, ret = -1;

	memset(sw, 0, sizeof(*sw));
	snprintf(path, sizeof(path), "%s/%s", dir, KFT_SWITCHES_FILE);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : kft_error_set(err, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) || pread(fd, &hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr) ||
	    memcmp(hdr.magic, KFT_SWITCHES_MAGIC, sizeof(hdr.magic)) || hdr.version != 1 ||
	    hdr.rec_size != sizeof(*v)) {
		kft_error_set(err, "%s: not a kft switches file, or of another version", path);
		goto out;
	}
	n = ((size_t)st.st_size - sizeof(hdr)) / sizeof(*v);
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v) {
		kft_error_set(err, "out of memory");
		goto out;
	}
	if (n && pread(fd, v, n * sizeof(*v), sizeof(hdr)) != (ssize_t)(n * sizeof(*v))) {
		kft_error_set(err, "%s: %s", path, strerror(errno));
		goto out;
	}
	sw->present = true;
	sw->nswitches = n;
	if (make_spans(sw, v, n)) {
		kft_error_set(err, "out of memory");
		goto out;
	}
	name_waker_prios(sw);
	ret = 0;
out:
	free(v);
	close(fd);
	if (ret)
		kft_switches_free(sw);
	return ret;
}

void kft_switches_free(struct kft_switches *sw)
{
	free(sw->wakeups);
	free(sw->spans);
	free(sw->before);
	free(sw->threads);
	memset(sw, 0, sizeof(*sw));
}

static const struct kft_switch_thread *thread_of(const struct kft_switches *sw, uint32_t tid)
{
	size_t lo = 0, hi = sw->nthreads;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (sw->threads[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < sw->nthreads && sw->threads[lo].tid == tid ? &sw->threads[lo] : NULL;
}

const struct kft_offcpu *kft_switches_of(const struct kft_switches *sw, uint32_t tid, size_t *n)
{
	const struct kft_switch_thread *t = thread_of(sw, tid);

	*n = 0;
	if (!t || !t->n)
		return NULL;
	*n = t->n;
	return &sw->spans[t->first];
}

const struct kft_wakeup *kft_switches_wakeups_of(const struct kft_switches *sw, uint32_t tid,
					       size_t *n)
{
	size_t lo = 0, hi = sw->nwakeups, end;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (sw->wakeups[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < sw->nwakeups && sw->wakeups[end].tid == tid; end++)
		;
	*n = end - lo;
	return *n ? &sw->wakeups[lo] : NULL;
}

/* The first of n spans that ends after at. */
static size_t first_ending_after(const struct kft_offcpu *s, size_t n, uint64_t at)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s[mid].to_ns <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int64_t kft_switches_cpu_at(const struct kft_switches *sw, uint32_t tid, uint64_t ns)
{
	const struct kft_switch_thread *t = thread_of(sw, tid);
	const struct kft_offcpu *s;
	size_t k;

	if (!t)
		return -1;
	if (!t->n)
		return t->cpu;
	s = &sw->spans[t->first];
	k = first_ending_after(s, t->n, ns);
	if (k == t->n)
		return s[t->n - 1].cpu_in;
	return s[k].from_ns <= ns ? s[k].cpu_in : s[k].cpu_out;
}

uint64_t kft_switches_off_ns(const struct kft_switches *sw, uint32_t tid, uint64_t from,
			     uint64_t to)
{
	size_t n, a, b;
	const struct kft_offcpu *s = kft_switches_of(sw, tid, &n);
	const uint64_t *before;
	uint64_t off;

	if (!s || to <= from)
		return 0;
	before = sw->before + (s - sw->spans);
	a = first_ending_after(s, n, from);
	b = first_ending_after(s, n, to);	/* spans [a, b) end inside */
	if (a == n || s[a].from_ns >= to)
		return 0;
	/* whole spans a..b-1, then clip the first's start and the one
	 * (b) that reaches past the end */
	off = (b > a ? before[b - 1] + (s[b - 1].to_ns - s[b - 1].from_ns) - before[a] : 0);
	if (b > a && s[a].from_ns < from)
		off -= from - s[a].from_ns;
	if (b < n && s[b].from_ns < to)
		off += to - (s[b].from_ns > from ? s[b].from_ns : from);
	return off;
}
