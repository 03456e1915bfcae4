// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a config asked for that the run never met: a start trigger that
 * never fired (nothing was recorded), functions of the funclist that
 * never ran. Said by `kft record` when the program ends.
 */
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../symbols/demangle.h"
#include "views.h"

static void func_text(const struct kft_func_ref *f, char *buf, size_t size)
{
	if (f->name)
		snprintf(buf, size, "%s", f->name);
	else
		snprintf(buf, size, "0x%" PRIx64, f->addr);
}

/* Whether a function the funclist names was logged: by name as views
 * show it (C++: "ns::f(int)" as "ns::f"), one a glob matches, or by
 * address. */
static bool logged(const struct kft_trace *tr, struct kft_symbolizer *sz,
		   const struct kft_func_ref *f)
{
	char base[512];

	if (f->name) {
		snprintf(base, sizeof(base), "%s", f->name);
		base[strcspn(base, "(")] = '\0';
	}
	for (size_t i = 0; i < tr->nthreads; i++) {
		const struct kft_thread_file *th = &tr->threads[i];
		uint32_t epochs = kft_symbolizer_epochs(sz, th->hdr.session);

		/* each site in every epoch of the map (its time is not known) */
		for (uint32_t e = 0; e < epochs; e++)
			for (uint64_t k = 0; k < th->nsites; k++) {
				uint64_t func = th->sites[k].func;
				struct kft_symbol sym;
				bool named = kft_symbolize(sz, KFT_IMAGE(th->hdr.session, e), func,
							   &sym);

				/* an address: as at run time, or as linked (a PIE's) */
				if (!f->name && (func == f->addr ||
						 (named && sym.sym_addr == f->addr)))
					return true;
				if (f->name && named && sym.name &&
				    (!strcmp(sym.name, f->name) || !strcmp(sym.name, base) ||
				     (kft_is_glob(f->name) && !fnmatch(f->name, sym.name, 0))))
					return true;
			}
	}
	return false;
}

/* The functions of a list none of whose calls was logged, on one line. */
static void unlogged(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		     const char *prefix, const char *list, const struct kft_func_ref *refs,
		     size_t n)
{
	char name[512];
	size_t missing = 0;
	uint64_t filtered;

	for (size_t i = 0; i < n; i++) {
		if (logged(tr, sz, &refs[i]))
			continue;
		func_text(&refs[i], name, sizeof(name));
		if (missing++)
			fprintf(out, ", %s", name);
		else
			fprintf(out, "%s%s: %s", prefix, list, name);
	}
	if (!missing)
		return;
	/* the filters may have dropped every call: "never ran" would be wrong */
	filtered = tr->totals.time_filtered + tr->totals.noints_filtered +
		   tr->totals.onlyints_filtered + tr->cpus_filtered;
	if (filtered)
		fprintf(out, ": none logged while the run was on (not called, inlined or not "
			"traced, or every call filtered out: the filters dropped %" PRIu64
			" calls)\n", filtered);
	else
		fprintf(out, ": never ran while the run was on (not called, inlined, or not "
			"traced)\n");
}

void kft_view_unreached(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			const char *prefix)
{
	const struct kft_config *cfg = &tr->cfg;
	const struct kft_trigger *st = &cfg->start;
	char name[512];

	/* (with autorepeat a run that started may be waiting again) */
	bool started = kft_trace_triggered(tr) || tr->ctl.first_start_ns != UINT64_MAX;

	if (st->type != KFT_TRIGGER_NONE && !started) {
		if (st->type == KFT_TRIGGER_TIME) {
			fprintf(out, "%sthe run never started: the program ended before its start "
				"time, %" PRIu64 " usec; nothing was recorded\n", prefix, st->usecs);
		} else {
			func_text(&st->func, name, sizeof(name));
			fprintf(out, "%sthe run never started: %s was never %s (not called, not "
				"traced, or not the function meant); nothing was recorded\n", prefix,
				name, st->type == KFT_TRIGGER_ENTRY ? "entered" : "left");
		}
		return;
	}
	if (!sz || !started)
		return;
	unlogged(out, tr, sz, prefix, "funclist", cfg->funcs, cfg->nfuncs);
	/* a graph function may be entered and not logged (the funclist or
	 * notrace left it out): said only when nothing was recorded */
	for (size_t i = 0; i < tr->nthreads; i++)
		if (tr->threads[i].nrecs)
			return;
	unlogged(out, tr, sz, prefix, "graph", cfg->graph.refs, cfg->graph.n);
}
