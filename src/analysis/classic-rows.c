// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "../format/call-stream.h"
#include "classic-rows.h"
#include "functable.h"

struct kft_classic_rows {
	const struct kft_trace *tr;
	struct kft_symbolizer *sz;
	struct kft_calls *cs;
	struct kft_calltree by_addr;	/* the functions met, by address */
	struct kft_functable addrs;
	uint64_t base_ns;		/* times count from the run's start */
	struct kft_text_row row;
};

static int rows_rewind(void *ctx, struct kft_error *err)
{
	struct kft_classic_rows *cr = ctx;

	kft_calls_close(cr->cs);
	cr->cs = kft_calls_open_flat(cr->tr, err);	/* kd 1.1 nests by name */
	return cr->cs ? 0 : -1;
}

static int rows_next(void *ctx, const struct kft_text_row **out, struct kft_error *err)
{
	struct kft_classic_rows *cr = ctx;
	struct kft_text_row *r = &cr->row;
	struct kft_call c;
	uint64_t image, entry;
	const char *caller;
	uint32_t at;

	do {
		if (!cr->cs || !kft_calls_next(cr->cs, &c)) {
			/* its index goes before a tree's places are found */
			kft_calls_close(cr->cs);
			cr->cs = NULL;
			return 0;
		}
	} while (c.dur_ns == -2);	/* stack-watch rows are no calls */
	image = kft_symbolizer_image(cr->sz, c.map_session, c.entry_ns);
	if (kft_functable_addr(&cr->addrs, image, c.func, &at) ||
	    !(caller = kft_functable_caller(&cr->addrs, image, c.call_site)))
		return kft_error_set(err, "out of memory");
	entry = c.entry_ns - (c.entry_ns >= cr->base_ns ? cr->base_ns : c.entry_ns);
	memset(r, 0, sizeof(*r));
	r->entry_ns = (int64_t)entry;
	r->delta_ns = c.dur_ns < 0 ? -1 : c.dur_ns;
	r->unit_ns = 1;
	r->tid = c.tid;
	r->coroutine = c.coroutine;
	r->irq = c.flags & KFT_REC_SIGNAL;
	kft_pid_label(r->pid, c.tid, c.coroutine, r->irq);
	/* the row borrows the table's names */
	r->func = cr->by_addr.funcs[at].base_name;
	r->caller = (char *)caller;
	*out = r;
	return 1;
}

struct kft_classic_rows *kft_classic_rows_open(const struct kft_trace *tr,
					       struct kft_symbolizer *sz, struct kft_error *err)
{
	struct kft_classic_rows *cr = calloc(1, sizeof(*cr));

	if (!cr) {
		kft_error_set(err, "out of memory");
		return NULL;
	}
	cr->tr = tr;
	cr->sz = sz;
	cr->base_ns = kft_trace_base_ns(tr);
	kft_functable_init(&cr->addrs, &cr->by_addr, sz);
	return cr;
}

struct kft_text_source kft_classic_rows_source(struct kft_classic_rows *cr)
{
	return (struct kft_text_source){ .next = rows_next, .rewind = rows_rewind, .ctx = cr };
}

void kft_classic_rows_close(struct kft_classic_rows *cr)
{
	if (!cr)
		return;
	kft_calls_close(cr->cs);
	kft_functable_done(&cr->addrs);
	kft_calltree_free(&cr->by_addr);
	free(cr);
}
