// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/grow.h"
#include "sched-events.h"
#include "../format/trace-files.h"

void kft_sched_init(struct kft_sched_state *s, struct tep_handle *tep)
{
	struct tep_event *sw = tep_find_event_by_name(tep, "sched", "sched_switch");
	struct tep_event *wk = tep_find_event_by_name(tep, "sched", "sched_wakeup");

	memset(s, 0, sizeof(*s));
	s->tep = tep;
	s->wakeup_id = wk ? wk->id : -1;
	if (wk) {
		s->woken_pid = tep_find_field(wk, "pid");
		s->woken_prio = tep_find_field(wk, "prio");
		s->target_cpu = tep_find_field(wk, "target_cpu");
		if (!s->woken_pid)
			s->wakeup_id = -1;
	}
	s->switch_id = sw ? sw->id : -1;
	if (!sw)
		return;
	s->prev_pid = tep_find_field(sw, "prev_pid");
	s->prev_prio = tep_find_field(sw, "prev_prio");
	s->prev_state = tep_find_field(sw, "prev_state");
	s->next_pid = tep_find_field(sw, "next_pid");
	s->next_prio = tep_find_field(sw, "next_prio");
	if (!s->prev_pid || !s->next_pid)
		s->switch_id = -1;
}

static long long number(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f)
		tep_read_number_field(f, rec->data, &v);
	return (long long)v;
}

static struct kft_switch *one_more(struct kft_sched_state *s)
{
	if (kft_grow((void **)&s->v, s->n, &s->cap, sizeof(*s->v), 1024)) {
		s->oom = true;
		return NULL;
	}
	return &s->v[s->n++];
}

bool kft_sched_event(struct kft_sched_state *s, struct tep_event *event, struct tep_record *rec,
		     int cpu, uint64_t base)
{
	uint32_t prev, next;
	int16_t prev_prio, next_prio;
	long long state;
	uint64_t ns = rec->ts > base ? rec->ts - base : 0;
	struct kft_switch *w;

	if (s->wakeup_id >= 0 && event->id == s->wakeup_id) {
		uint32_t woken = (uint32_t)number(s->woken_pid, rec);

		if (woken && (w = one_more(s)))
			*w = (struct kft_switch){
				.ns = ns, .tid = woken, .flags = KFT_SWITCH_WAKEUP,
				.cpu = (uint32_t)(s->target_cpu ? number(s->target_cpu, rec) : cpu),
				.other_tid = (uint32_t)tep_data_pid(s->tep, rec),
				.prio = (int16_t)(s->woken_prio ? number(s->woken_prio, rec) : -1),
				.other_prio = -1,
			};
		return true;
	}
	if (s->switch_id < 0 || event->id != s->switch_id)
		return false;
	prev = (uint32_t)number(s->prev_pid, rec);
	next = (uint32_t)number(s->next_pid, rec);
	prev_prio = (int16_t)(s->prev_prio ? number(s->prev_prio, rec) : -1);
	next_prio = (int16_t)(s->next_prio ? number(s->next_prio, rec) : -1);
	state = number(s->prev_state, rec);
	/* the idle task is no thread of anyone's */
	if (prev && (w = one_more(s))) {
		*w = (struct kft_switch){ .ns = ns, .tid = prev, .cpu = (uint32_t)cpu,
					  .other_tid = next, .prio = prev_prio,
					  .other_prio = next_prio };
		/* TASK_RUNNING (0, or only the preemption bit above the
		 * states): preempted; TASK_UNINTERRUPTIBLE (2): D */
		w->flags = KFT_SWITCH_OUT | ((state & 0xff) == 0 ? KFT_SWITCH_PREEMPTED : 0) |
			   ((state & 0xff) == 2 ? KFT_SWITCH_STATE_D : 0);
	}
	if (next && (w = one_more(s))) {
		*w = (struct kft_switch){ .ns = ns, .tid = next, .cpu = (uint32_t)cpu,
					  .other_tid = prev, .prio = next_prio,
					  .other_prio = prev_prio };
		/* coming in, the state bits are the other task's */
		w->flags = ((state & 0xff) == 0 ? KFT_SWITCH_PREEMPTED : 0) |
			   ((state & 0xff) == 2 ? KFT_SWITCH_STATE_D : 0);
	}
	return true;
}

int kft_sched_write(const struct kft_sched_state *s, const char *dir, uint64_t base,
		    uint32_t (*tgid_of)(const void *ctx, uint32_t tid), const void *ctx,
		    struct kft_error *err)
{
	struct kft_switches_hdr hdr = { .magic = KFT_SWITCHES_MAGIC, .version = 1,
					.rec_size = sizeof(struct kft_switch),
					.clock_base_ns = base };
	char path[4096];
	FILE *f;
	int fd;

	if ((s->switch_id < 0 && s->wakeup_id < 0) || !s->n)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, KFT_SWITCHES_FILE);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		if (fd >= 0)
			close(fd);
		return kft_error_set(err, "%s: %s", path, strerror(errno));
	}
	fwrite(&hdr, sizeof(hdr), 1, f);
	for (size_t i = 0; i < s->n; i++) {
		struct kft_switch w = s->v[i];

		w.pid = tgid_of(ctx, w.tid);
		fwrite(&w, sizeof(w), 1, f);
	}
	if (fclose(f))
		return kft_error_set(err, "%s: write failed", path);
	return 0;
}

void kft_sched_free(struct kft_sched_state *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}
