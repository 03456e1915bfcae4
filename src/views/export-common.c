// SPDX-License-Identifier: GPL-2.0-only
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/mono-clock.h"
#include "export-common.h"
#include "views.h"

static bool matches(const char *name, const char *const *globs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!fnmatch(globs[i], name, 0))
			return true;
	return false;
}

/* A glob that matches no function of the trace: an error naming it (a
 * typo would otherwise give an empty answer). */
static int check_matched(const struct export_ctx *x, const char *const *globs, size_t n,
			 const char *what, struct kft_error *err)
{
	for (size_t i = 0; i < n; i++) {
		size_t f = 0;

		while (f < x->names.nfuncs && fnmatch(globs[i], x->names.funcs[f].base_name, 0))
			f++;
		if (f == x->names.nfuncs)
			return kft_error_set(err, "%s '%s': no function of the trace matches it "
					     "(kft kd lists them)", what, globs[i]);
	}
	return 0;
}

/* Which functions the globs leave out, once each. */
static int set_dropped(struct export_ctx *x, struct kft_error *err)
{
	const struct kft_export_opts *o = x->o;

	if (check_matched(x, o->only, o->nonly, "function", err) ||
	    check_matched(x, o->notrace, o->nnotrace, "--notrace", err))
		return -1;
	x->ndropped = x->names.nfuncs;
	x->dropped = calloc(x->ndropped ? x->ndropped : 1, sizeof(*x->dropped));
	if (!x->dropped)
		return kft_error_set(err, "out of memory");
	for (size_t f = 0; f < x->ndropped; f++) {
		const char *name = x->names.funcs[f].base_name;

		x->dropped[f] = (o->nonly && !matches(name, o->only, o->nonly)) ||
				matches(name, o->notrace, o->nnotrace);
	}
	return 0;
}

int kft_export_begin(struct export_ctx *x, const struct kft_trace *tr, struct kft_symbolizer *sz,
		     const struct kft_export_opts *o, struct kft_error *err)
{
	char why[256];
	uint64_t at;

	memset(x, 0, sizeof(*x));
	x->tr = tr;
	x->o = o;
	x->base = kft_trace_base_ns(tr);
	x->end = kft_view_stopped(tr, sz, &at, why, sizeof(why)) ? at : tr->ctl.ended_ns;
	x->shown = -1;
	kft_functable_init(&x->ft, &x->names, sz);
	if (kft_functable_name_trace(&x->ft, tr)) {
		kft_export_end(x);
		return kft_error_set(err, "out of memory");
	}
	if (set_dropped(x, err)) {
		kft_export_end(x);
		return -1;
	}
	return 0;
}

void kft_export_end(struct export_ctx *x)
{
	if (x->shown >= 0)
		fputs("\r\033[K", stderr);	/* the progress line goes */
	free(x->dropped);
	kft_functable_done(&x->ft);
	kft_calltree_free(&x->names);
	memset(x, 0, sizeof(*x));
	x->shown = -1;		/* done: ending again does nothing */
}

int kft_export_func(struct export_ctx *x, const struct kft_call *c, uint32_t *func)
{
	return kft_functable_addr(&x->ft, kft_symbolizer_image(x->ft.sz, c->map_session, c->entry_ns),
				  c->func, func);
}

bool kft_export_kept(const struct export_ctx *x, const struct kft_call *c, uint32_t func)
{
	if (func < x->ndropped && x->dropped[func])
		return false;
	return !x->o->min_ns || (int64_t)kft_export_duration(x, c) >= x->o->min_ns;
}

uint64_t kft_export_entry(const struct export_ctx *x, const struct kft_call *c)
{
	return c->entry_ns > x->base ? c->entry_ns - x->base : 0;
}

uint64_t kft_export_duration(const struct export_ctx *x, const struct kft_call *c)
{
	if (c->dur_ns >= 0)
		return (uint64_t)c->dur_ns;
	return x->end > c->entry_ns ? x->end - c->entry_ns : 0;
}

void kft_export_thread_name(const struct kft_trace *tr, uint32_t pid, uint32_t tid, char *out,
			    size_t size)
{
	snprintf(out, size, "%" PRIu32, tid ? tid : pid);
	for (size_t i = 0; i < tr->nthreads; i++) {
		const struct kft_thread_hdr *h = &tr->threads[i].hdr;

		if (h->pid == pid && (h->tid == tid || !tid) && h->comm[0]) {
			snprintf(out, size, "%.*s", (int)sizeof(h->comm), h->comm);
			return;
		}
	}
}

void kft_export_progress(struct export_ctx *x)
{
	int pct;

	x->seen++;
	if (!x->o->progress || !x->total || (x->seen & 0xffff))
		return;
	if (!x->started_ns)
		x->started_ns = kft_mono_now_ns();
	if (kft_mono_now_ns() - x->started_ns < 1000000000ULL)
		return;
	pct = (int)(x->seen * 100 / x->total);
	if (pct != x->shown) {
		fprintf(stderr, "\rkft: export: %d%%", pct);
		x->shown = pct;
	}
}
