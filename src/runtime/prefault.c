// SPDX-License-Identifier: LGPL-2.1
/*
 * Each thread's log faulted in ahead of its writer, by the helper thread
 * (helper.c). The first write to a page of a file mapping is a page
 * fault, and on some kernels and file systems (large folios) the first
 * write to each 2 MB costs a millisecond: about 15 ns per record, paid
 * inside the traced calls. The helper asks the kernel to populate the
 * next stretch (MADV_POPULATE_WRITE, Linux 5.14) while the traced threads
 * run, on another CPU. It never touches the records. On an older kernel
 * it stops populating at its first try.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define SLOTS 1024
#define CHUNK (2UL << 20)	/* populate this much at a time ... */
#define AHEAD (8UL << 20)	/* ... to stay this far ahead of the writer, or
				 * as far as it has written, if less: a short run
				 * should not wait for 10 MB it never uses */
#define YOUNG (2UL << 20)	/* a log's first bytes: its writer's to populate */
#define GROWN (512UL << 10)	/* and the first of each stretch it grows by */

struct log_slot {
	struct kft_thread_hdr *hdr;	/* NULL: free; the owner clears it */
	int reading;			/* the helper reads hdr's header now: its
					 * owner waits before it unmaps it */
	char *recs;
	size_t size;			/* bytes of records */
	size_t done;			/* populated up to here */
};

static struct log_slot slots[SLOTS];
static int slots_used;		/* slots[slots_used..] were never taken: a fork
				 * child clears no more, nor faults in the rest */
static bool populate = true;		/* false: MADV_POPULATE_WRITE is not here */
static uintptr_t page_mask;
#define CLAIMED ((struct kft_thread_hdr *)1)	/* being filled in */

/* Where t's log begins for madvise (the page its records begin in), and
 * its bytes from there. */
static KFT_NOTRACE char *log_span(const struct kft_tls *t, size_t *size)
{
	char *base = (char *)((uintptr_t)t->recs & ~page_mask);

	*size = kft_rec_slots(t->hdr) * sizeof(struct kft_rec) + (size_t)((char *)t->recs - base);
	return base;
}

/* Populate [p, p + len) for writing; false if not (a kernel without
 * MADV_POPULATE_WRITE is not asked again). */
static KFT_NOTRACE bool populate_range(char *p, size_t len)
{
	if (!madvise(p, len, MADV_POPULATE_WRITE))
		return true;
	if (errno == EINVAL)
		populate = false;	/* not supported here */
	return false;
}

/* The helper's round over the logs; whether it populated anything. */
KFT_NOTRACE bool kft_prefault_step(void)
{
	bool busy = false;

	int used_slots = __atomic_load_n(&slots_used, __ATOMIC_ACQUIRE);

	for (int i = 0; i < used_slots && populate; i++) {
		struct log_slot *s = &slots[i];
		struct kft_thread_hdr *h;
		size_t used, ahead, len;
		bool overwrite;

		/* (reading, then hdr; its owner clears hdr, then waits for
		 * reading to drop: one of the two sees the other) */
		__atomic_store_n(&s->reading, 1, __ATOMIC_SEQ_CST);
		h = __atomic_load_n(&s->hdr, __ATOMIC_SEQ_CST);
		if (!h || h == CLAIMED) {
			__atomic_store_n(&s->reading, 0, __ATOMIC_RELEASE);
			continue;
		}
		used = (size_t)__atomic_load_n(&h->head, __ATOMIC_RELAXED) * sizeof(struct kft_rec);
		overwrite = h->overwrite;
		__atomic_store_n(&s->reading, 0, __ATOMIC_RELEASE);
		ahead = used > AHEAD ? AHEAD : used;
		if (overwrite || s->done >= s->size || used + ahead <= s->done)
			continue;
		len = s->size - s->done < CHUNK ? s->size - s->done : CHUNK;
		/* (a log moved or gone since: madvise finds nothing there, or
		 * faults in what is there now, which it never changes) */
		if (!populate_range(s->recs + s->done, len))
			continue;	/* or the log moved, or its thread left */
		s->done += len;
		busy = true;
	}
	return busy;
}

/* Before the helper starts, and in a fork child (the helper is gone):
 * no logs yet. */
KFT_NOTRACE void kft_prefault_reset(void)
{
	memset(slots, 0, (size_t)slots_used * sizeof(slots[0]));
	slots_used = 0;
	page_mask = (uintptr_t)sysconf(_SC_PAGESIZE) - 1;
}

/* A thread's log, to keep ahead of, populated up to done bytes. */
KFT_NOTRACE void kft_prefault_add(struct kft_tls *t, size_t done)
{
	if (!kft_helper_running() || kft_rt.overwrite)
		return;
	for (int i = 0; i < SLOTS; i++) {
		struct kft_thread_hdr *none = NULL;

		if (__atomic_load_n(&slots[i].hdr, __ATOMIC_RELAXED) ||
		    !__atomic_compare_exchange_n(&slots[i].hdr, &none, CLAIMED, false,
						 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			continue;
		slots[i].recs = log_span(t, &slots[i].size);
		slots[i].done = done;
		kft_raise_to(&slots_used, i + 1);
		__atomic_store_n(&slots[i].hdr, t->hdr, __ATOMIC_RELEASE);
		t->prefault_slot = i + 1;
		return;
	}
}

/*
 * t's log grew, populated up to done bytes. While it is young its writer
 * outruns the helper, which naps between rounds (a log's first 2 MB took
 * most of a 7-million-call run's page faults), so the writer populates
 * the new stretch itself, in one call instead of a fault a page. Later,
 * it populates the first 512 KiB of each new stretch: a log grows when
 * it is full, so the writer's next record is there before the helper can
 * be (it takes half a millisecond to come, in which the writer had taken
 * a fault for each of some 60 pages). How far the log is populated now.
 */
KFT_NOTRACE size_t kft_prefault_grown(struct kft_tls *t, size_t done)
{
	size_t size, end;
	char *base = log_span(t, &size);

	end = done + GROWN > YOUNG ? done + GROWN : YOUNG;
	if (end > size)
		end = size;
	if (!populate || kft_rt.overwrite || done >= end)
		return done;
	return populate_range(base + done, end - done) ? end : done;
}

/* Before the log is unmapped or moved: how far it was populated. */
KFT_NOTRACE size_t kft_prefault_remove(struct kft_tls *t)
{
	size_t done = 0;

	if (t->prefault_slot) {
		struct log_slot *s = &slots[t->prefault_slot - 1];

		__atomic_store_n(&s->hdr, NULL, __ATOMIC_SEQ_CST);
		/* the helper may have taken hdr just before: it reads two
		 * words of the header, then lets go */
		while (__atomic_load_n(&s->reading, __ATOMIC_SEQ_CST))
#if defined(__x86_64__)
			__builtin_ia32_pause();
#else
			;
#endif
		done = s->done;
	}
	t->prefault_slot = 0;
	return done;
}
