// SPDX-License-Identifier: GPL-2.0-only
/* The markers and off-CPU spans kd's call trees show, taken from a trace. */
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "kd-notes.h"

static int by_thread_then_time(const void *pa, const void *pb)
{
	const struct kft_kd_note *a = pa, *b = pb;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->ns != b->ns)
		return a->ns < b->ns ? -1 : 1;
	/* a marker made as its thread left the CPU comes first */
	return (a->off_ns >= 0) - (b->off_ns >= 0);
}

static int add(struct kft_kd_notes *kn, size_t *cap, const struct kft_kd_note *note)
{
	if (kft_grow((void **)&kn->notes, kn->n, cap, sizeof(*kn->notes), 64))
		return -1;
	kn->notes[kn->n++] = *note;
	return 0;
}

static int group(struct kft_kd_notes *kn)
{
	size_t cap = 0;

	for (size_t i = 0; i < kn->n; i++) {
		if (i && kn->notes[i].tid == kn->notes[i - 1].tid) {
			kn->threads[kn->nthreads - 1].n++;
			continue;
		}
		if (kft_grow((void **)&kn->threads, kn->nthreads, &cap, sizeof(*kn->threads), 16))
			return -1;
		kn->threads[kn->nthreads++] = (struct kft_kd_note_thread){ kn->notes[i].tid, i, 1, i, false };
	}
	return 0;
}

int kft_kd_notes_take(struct kft_kd_notes *kn, const struct kft_trace *tr, bool switches,
		      struct kft_error *err)
{
	int64_t base = (int64_t)kft_trace_base_ns(tr);
	size_t cap = 0;

	memset(kn, 0, sizeof(*kn));
	if (tr->nmarks) {
		kn->marks = malloc(tr->nmarks * sizeof(*kn->marks));
		if (!kn->marks)
			goto oom;
		memcpy(kn->marks, tr->marks, tr->nmarks * sizeof(*kn->marks));
		kn->nmarks = tr->nmarks;
	}
	for (size_t i = 0; i < tr->nmarks; i++) {
		struct kft_kd_note note = { (int64_t)tr->marks[i].ns - base, -1, tr->marks[i].tid,
					    (uint32_t)i, false };

		if (add(kn, &cap, &note))
			goto oom;
	}
	for (size_t t = 0; switches && t < tr->switches.nthreads; t++) {
		uint32_t tid = tr->switches.threads[t].tid;
		size_t n;
		const struct kft_offcpu *s = kft_switches_of(&tr->switches, tid, &n);

		for (size_t i = 0; i < n; i++) {
			struct kft_kd_note note = { (int64_t)s[i].from_ns - base,
						    (int64_t)(s[i].to_ns - s[i].from_ns), tid, 0,
						    s[i].preempted };

			if (add(kn, &cap, &note))
				goto oom;
		}
	}
	if (kn->n)
		qsort(kn->notes, kn->n, sizeof(*kn->notes), by_thread_then_time);
	if (!group(kn))
		return 0;
oom:
	kft_kd_notes_free(kn);
	return kft_error_set(err, "out of memory");
}

void kft_kd_notes_free(struct kft_kd_notes *kn)
{
	free(kn->notes);
	free(kn->threads);
	free(kn->marks);
	memset(kn, 0, sizeof(*kn));
}

struct kft_kd_note_thread *kft_kd_notes_thread(struct kft_kd_notes *kn, uint32_t tid)
{
	size_t lo = 0, hi = kn->nthreads;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (kn->threads[mid].tid == tid)
			return &kn->threads[mid];
		if (kn->threads[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
