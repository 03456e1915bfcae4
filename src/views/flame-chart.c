// SPDX-License-Identifier: GPL-2.0-only
/*
 * A flame chart as one self-contained SVG: time runs left to right, and
 * each thread (each of its coroutines, its signal handlers) has a lane
 * where every call is a box from its entry to its exit, callers below the
 * calls they made. Read from the call stream twice: once to find the
 * lanes and their depths, once to draw; memory grows with the lanes and
 * their open calls, never with the calls.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/nest.h"
#include "../common/addrmap.h"
#include "../common/grow.h"
#include "export-common.h"
#include "flame-svg.h"
#include "flame.h"

struct lane {
	uint32_t pid, tid, coroutine;
	bool irq;
	uint32_t rows;		/* levels drawn (the first pass) */
	double top;		/* y of its label */
	struct kft_nest open;	/* its boxes open */
};

struct chart {
	struct export_ctx x;
	FILE *out;
	struct lane *lanes;
	size_t nlanes, cap;
	struct kft_addrmap by_thread;	/* (pid, irq), (tid, coroutine) -> lane */
	uint64_t span;			/* ns the width stands for */
	double px_per_ns;
	uint64_t drawn;
};

static struct lane *lane_of(struct chart *ch, const struct kft_call *c)
{
	bool irq = c->flags & KFT_REC_SIGNAL;
	uint32_t *slot = kft_addrmap_slot(&ch->by_thread, (uint64_t)c->pid << 1 | irq,
					  (uint64_t)c->tid << 32 | c->coroutine);
	struct lane *l;

	if (!slot)
		return NULL;
	if (*slot != KFT_ADDRMAP_NONE)
		return &ch->lanes[*slot];
	if (kft_grow((void **)&ch->lanes, ch->nlanes, &ch->cap, sizeof(*ch->lanes), 16))
		return NULL;
	*slot = (uint32_t)ch->nlanes;
	l = &ch->lanes[ch->nlanes++];
	memset(l, 0, sizeof(*l));
	l->pid = c->pid;
	l->tid = c->tid;
	l->coroutine = c->coroutine;
	l->irq = irq;
	return l;
}

/* The level of call c, its box from at to end, in lane l: its boxes
 * still open that hold it (by depth, and by time where a lost exit left
 * one open; each open box's end is its acc). */
static int level_of(struct lane *l, const struct kft_call *c, uint64_t at, uint64_t end,
		    uint32_t *level)
{
	const struct kft_nest_open *top;
	struct kft_nest_open *box;

	while ((top = kft_nest_top(&l->open)) && (top->call.depth >= c->depth || top->acc < at))
		kft_nest_pop(&l->open);
	*level = (uint32_t)l->open.n;
	if (!(box = kft_nest_push(&l->open, c, *level)))
		return -1;
	box->acc = end;
	return 0;
}

/* One pass over the calls: lanes and their rows, or (draw) the boxes. */
static int pass(struct chart *ch, bool draw, struct kft_export_result *res,
		struct kft_error *err)
{
	struct kft_calls *cs = kft_calls_open_trees(ch->x.tr, NULL, 0, err);
	struct kft_call c;

	if (!cs)
		return -1;
	if (!draw)
		ch->x.total = 2 * kft_calls_total(cs);	/* progress over both passes */
	for (size_t i = 0; i < ch->nlanes; i++)
		kft_nest_reset(&ch->lanes[i].open);
	while (kft_calls_next(cs, &c) > 0) {
		uint64_t at, dur;
		struct lane *l;
		uint32_t f, level;

		kft_export_progress(&ch->x);
		if (c.dur_ns == -2)
			continue;	/* a stack-watch row */
		if (!draw)	/* a fork child's inherited call: its parent's */
			res->calls += !(c.flags & KFT_CALL_INHERITED);
		if (kft_export_func(&ch->x, &c, &f))
			goto oom;
		at = kft_export_entry(&ch->x, &c);
		dur = kft_export_duration(&ch->x, &c);
		if (at > ch->span)
			at = ch->span;	/* past the run's end: at its edge */
		if (dur > ch->span - at)
			dur = ch->span - at;
		if (!kft_export_kept(&ch->x, &c, f) || (double)dur * ch->px_per_ns < MIN_PX)
			continue;	/* and what it called, narrower still */
		l = lane_of(ch, &c);
		if (!l || level_of(l, &c, at, at + dur, &level))
			goto oom;
		if (!draw) {
			if (level + 1 > l->rows)
				l->rows = level + 1;
			continue;
		}
		kft_flame_svg_box(ch->out, ch->x.names.funcs[f].name,
				  c.flags & KFT_CALL_INHERITED ? " (inherited)" : "", dur, ch->span,
				  (double)at * ch->px_per_ns,
				  l->top + (double)(l->rows - level) * FRAME,
				  (double)dur * ch->px_per_ns);
		ch->drawn++;
	}
	kft_calls_close(cs);
	return 0;
oom:
	kft_calls_close(cs);
	return kft_error_set(err, "out of memory");
}

static void put_lane_labels(struct chart *ch)
{
	for (size_t i = 0; i < ch->nlanes; i++) {
		const struct lane *l = &ch->lanes[i];
		char name[64], label[128];

		kft_export_thread_name(ch->x.tr, l->pid, l->tid, name, sizeof(name));
		if (l->irq)
			snprintf(label, sizeof(label), "%s %" PRIu32 ": signal handlers", name, l->tid);
		else if (l->coroutine)
			snprintf(label, sizeof(label), "%s %" PRIu32 ": coroutine %" PRIu32, name,
				 l->tid, l->coroutine);
		else
			snprintf(label, sizeof(label), "%s %" PRIu32, name, l->tid);
		kft_flame_svg_label(ch->out, 10, l->top + FRAME - 4, label);
	}
}

int kft_view_flame_chart(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			 const struct kft_export_opts *o, const char *title,
			 struct kft_export_result *res, struct kft_error *err)
{
	struct chart ch = { .out = out };
	double y = TOP;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	if (kft_export_begin(&ch.x, tr, sz, o, err))
		return -1;
	ch.span = ch.x.end > ch.x.base ? ch.x.end - ch.x.base : 0;
	ch.px_per_ns = ch.span ? (WIDTH - 20) / (double)ch.span : 0;
	if (pass(&ch, false, res, err))
		goto out;
	for (size_t i = 0; i < ch.nlanes; i++) {
		ch.lanes[i].top = y;
		y += (double)(ch.lanes[i].rows + 1) * FRAME + 8;
	}
	kft_flame_svg_begin(out, y + 10, title, ch.span);
	put_lane_labels(&ch);
	if (pass(&ch, true, res, err))
		goto out;
	kft_flame_svg_end(out);
	res->written = ch.drawn;
	ret = ferror(out) ? kft_error_set(err, "write error") : 0;
out:
	for (size_t i = 0; i < ch.nlanes; i++)
		kft_nest_free(&ch.lanes[i].open);
	free(ch.lanes);
	kft_addrmap_free(&ch.by_thread);
	kft_export_end(&ch.x);
	return ret;
}
