// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "pairing.h"

static int emit(struct kft_task_out *t, const struct kft_config *cfg, uint64_t entry, uint64_t dur,
		bool unfinished, uint64_t func, uint64_t site, int32_t depth, bool irq)
{
	struct kft_rec_data *r;

	if (!unfinished) {
		if ((cfg->mintime && dur < cfg->mintime * 1000) ||
		    (cfg->maxtime && dur > cfg->maxtime * 1000)) {
			t->c.time_filtered++;
			return 0;
		}
	}
	if (cfg->noints && irq) {
		t->c.noints_filtered++;
		return 0;
	}
	if (cfg->onlyints && !irq) {
		t->c.onlyints_filtered++;
		return 0;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 1024;
		struct kft_rec_data *bigger = realloc(t->recs, cap * sizeof(*bigger));

		if (!bigger)
			return -1;
		t->recs = bigger;
		t->cap = cap;
	}
	r = &t->recs[t->n++];
	r->entry_ns = entry;
	r->func = func;
	r->call_site = site;
	r->dur = unfinished ? KFT_DUR_UNFINISHED : kft_dur_encode(dur);
	r->depth = (uint32_t)depth;
	r->flags = KFT_REC_KERNEL | (irq ? KFT_REC_SIGNAL : 0);
	return 0;
}

int kft_kernel_pair(const struct kft_kev *ev, size_t n, const struct kft_config *cfg,
		    uint64_t base, struct kft_task_out *t)
{
	/* frames[d] is an open call when it is marked logged */
	memset(t->frames, 0, sizeof(t->frames));
	t->top = 0;
	for (size_t i = 0; i < n; i++) {
		const struct kft_kev *e = &ev[i];
		uint64_t rel = e->ts > base ? e->ts - base : 0;
		int32_t d = e->depth < 0 ? 0 : e->depth;

		if (e->type == KFT_KEV_FUNCTION) {
			if (emit(t, cfg, rel, 0, true, e->func, e->extra, 0, e->irq))
				return -1;
		} else if (e->type == KFT_KEV_ENTRY && d < KFT_KEV_MAX_DEPTH) {
			/* open ones this deep or deeper lost their exits: never
			 * closed (above top all frames are clear) */
			if (t->top > (size_t)d)
				memset(&t->frames[d], 0, (t->top - (size_t)d) * sizeof(t->frames[d]));
			t->frames[d].func = e->func;
			t->frames[d].entry_ns = rel;
			t->frames[d].flags = KFT_FRAME_LOGGED | KFT_FRAME_KERNEL |
					     (e->irq ? KFT_FRAME_SIGNAL : 0);
			t->top = (size_t)d + 1;
		} else if (e->type == KFT_KEV_EXIT) {
			bool paired = d < KFT_KEV_MAX_DEPTH && (t->frames[d].flags & KFT_FRAME_LOGGED) &&
				      t->frames[d].func == e->func;
			uint64_t entry = paired ? t->frames[d].entry_ns :
						  (rel > e->extra ? rel - e->extra : 0);

			if (t->top > (size_t)d) {
				memset(&t->frames[d], 0, (t->top - (size_t)d) * sizeof(t->frames[d]));
				t->top = (size_t)d;
			}
			if (emit(t, cfg, entry, e->extra, false, e->func, 0, d, e->irq))
				return -1;
		}
	}
	while (t->top && !(t->frames[t->top - 1].flags & KFT_FRAME_LOGGED))
		t->top--;
	return 0;
}

/* logentries is per thread, as for programs */
void kft_kernel_cut(struct kft_task_out *t, const struct kft_config *cfg)
{
	size_t cap = cfg->logentries_set ? (size_t)cfg->logentries : SIZE_MAX;

	if (t->n <= cap)
		return;
	if (cfg->overwrite) {
		memmove(t->recs, t->recs + (t->n - cap), cap * sizeof(*t->recs));
		t->c.overwritten += t->n - cap;
	} else {
		t->c.log_full += t->n - cap;
	}
	t->n = cap;
}
