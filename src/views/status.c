// SPDX-License-Identifier: GPL-2.0-only
/*
 * `kft status`: the text /proc/kft gave. Unlike KFT, the config part shows
 * what was configured even after a manual start/stop or a full log; why
 * the run moved is in the "run:" part.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../common/process.h"
#include "../analysis/compensation.h"
#include "../config/config.h"
#include "../format/thread-records.h"
#include "views.h"

static void print_trigger(FILE *out, const char *which, const struct kft_trigger *t)
{
	char buf[256];

	switch (t->type) {
	case KFT_TRIGGER_ENTRY:
	case KFT_TRIGGER_EXIT:
		fprintf(out, "  trigger %s %s %s\n", which,
			t->type == KFT_TRIGGER_ENTRY ? "entry" : "exit",
			kft_func_ref_str(&t->func, buf, sizeof(buf)));
		break;
	case KFT_TRIGGER_TIME:
		fprintf(out, "  trigger %s at time %" PRIu64 "\n", which, t->usecs);
		break;
	default:
		fprintf(out, "  trigger %s not set\n", which);
		break;
	}
}

static void print_list(FILE *out, const char *word, const struct kft_func_ref *refs, size_t n)
{
	char buf[256];

	fprintf(out, "  filter %s", word);
	for (size_t i = 0; i < n; i++)
		fprintf(out, " %s", kft_func_ref_str(&refs[i], buf, sizeof(buf)));
	fprintf(out, " fend\n");
}

static void print_config(FILE *out, const struct kft_config *cfg)
{
	fprintf(out, "config:\n");
	fprintf(out, "  mode %d\n", KFT_MODE_TIMED | (cfg->autorepeat ? KFT_MODE_AUTOREPEAT : 0));
	print_trigger(out, "start", &cfg->start);
	print_trigger(out, "stop", &cfg->stop);
	fprintf(out, "  filter mintime %" PRIu64 "\n", cfg->mintime);
	fprintf(out, "  filter maxtime %" PRIu64 "\n", cfg->maxtime);
	if (cfg->noints)
		fprintf(out, "  filter noints\n");
	if (cfg->cpus_set) {
		char cpus[KFT_CPUS_STR_MAX];

		fprintf(out, "  filter cpus %s\n", kft_config_cpus_str(cfg, cpus, sizeof(cpus)));
	}
	if (cfg->onlyints)
		fprintf(out, "  filter onlyints\n");
	if (cfg->has_funclist)
		print_list(out, "funclist", cfg->funcs, cfg->nfuncs);
	if (cfg->skip_list.set)
		print_list(out, "notrace", cfg->skip_list.refs, cfg->skip_list.n);
	if (cfg->graph.set)
		print_list(out, "graph", cfg->graph.refs, cfg->graph.n);
	if (cfg->max_depth)
		fprintf(out, "  filter depth %u\n", cfg->max_depth);
	if (cfg->logentries_set || cfg->overwrite)
		fprintf(out, "  logentries %" PRIu64 "\n", cfg->logentries);
	else
		fprintf(out, "  logentries unlimited\n");
	if (cfg->watch != KFT_WATCH_NONE)
		fprintf(out, "  watch %s %" PRIu64 "\n",
			cfg->watch == KFT_WATCH_STACK ? "stack" : "worst-stack", cfg->watch_bytes);
	if (cfg->overwrite)
		fprintf(out, "  overwrite\n");
}

/*
 * The chain the stack watch logged last in thread th, outermost call
 * first, rebuilt from its rows (a row at depth d takes the place of the
 * chain's rows from d on: watch worst-stack logs only what changed), with
 * a run of one function as "nest (x1000)".
 */
static void print_watch_chain(FILE *out, const struct kft_thread_file *th,
			      struct kft_symbolizer *sz)
{
	uint64_t *chain = NULL, len = 0, image = 0;
	char name[512];
	size_t cap = 0;

	for (uint64_t k = 0; k < th->nrecs; k++) {
		struct kft_rec_data r;

		kft_thread_rec(th, k, &r);
		if (r.dur != KFT_DUR_WATCH)
			continue;
		while (r.depth >= cap) {
			size_t had = cap;

			if (kft_grow((void **)&chain, cap, &cap, sizeof(*chain), 64)) {
				free(chain);
				return;
			}
			memset(chain + had, 0, (cap - had) * sizeof(*chain));
		}
		chain[r.depth] = r.func;
		len = r.depth + 1;
		image = kft_symbolizer_image(sz, th->hdr.session, r.entry_ns);
	}
	fprintf(out, "  stack watch, thread %u: %" PRIu64 " calls deep:", th->hdr.tid, len);
	for (uint64_t i = 0, next; i < len; i = next) {
		for (next = i + 1; next < len && chain[next] == chain[i]; next++)
			;
		kft_symbol_text(sz, image, chain[i], false, name, sizeof(name));
		fprintf(out, "%s %s", i ? " >" : "", name);
		if (next - i > 1)
			fprintf(out, " (x%" PRIu64 ")", next - i);
	}
	fputc('\n', out);
	free(chain);
}

/* The processes still writing the trace (kft record did not wait for
 * them, or was stopped waiting), by the thread files they have mapped. */
static void print_running(FILE *out, const struct kft_trace *tr)
{
	size_t n = 0;

	for (size_t i = 0; i < tr->nthreads; i++) {
		uint32_t pid = tr->threads[i].hdr.pid;
		bool listed = false;

		for (size_t k = 0; k < i && !listed; k++)
			listed = tr->threads[k].hdr.pid == pid;
		if (listed || !pid || !kft_process_maps_dir((pid_t)pid, tr->dir))
			continue;
		fprintf(out, "%s%u", n++ ? " " : "  still running, writing the trace: pid ", pid);
	}
	if (n)
		fputc('\n', out);
}

void kft_view_status(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz)
{
	const struct kft_control *ctl = &tr->ctl;
	struct kft_compensation comp = kft_compensation_of(ctl);
	uint64_t entries = tr->nopen;
	uint64_t at_ns;
	size_t stacks = 0;	/* coroutines' logs: not threads of their own */
	char why[512], how[64];
	const char *ending = kft_view_ending(tr, how, sizeof(how));

	for (size_t i = 0; i < tr->nthreads; i++) {
		entries += tr->threads[i].nrecs;
		stacks += tr->threads[i].hdr.coroutine != 0;
	}
	fprintf(out, "status: run id %u, %sprimed, %striggered, %scomplete\n\n", ctl->run_id,
		kft_trace_primed(tr) ? "" : "not ", kft_trace_triggered(tr) ? "" : "not ",
		kft_trace_complete(tr) ? "" : "not ");
	print_config(out, &tr->cfg);
	fprintf(out, "\nrun:\n");
	/* the first start, as the log's header says; autorepeat starts again */
	if (ctl->start.how)
		fprintf(out, "  started at %" PRIu64 " usec by %s\n", ctl->first_start_ns / 1000,
			kft_view_fired(&ctl->start, false, sz, why, sizeof(why)));
	if (ctl->start.how && ctl->start.mark_ns != ctl->first_start_ns)
		fprintf(out, "  last started at %" PRIu64 " usec\n", ctl->start.mark_ns / 1000);
	if (kft_view_stopped(tr, sz, &at_ns, why, sizeof(why)))
		fprintf(out, "  stopped at %" PRIu64 " usec by %s\n", at_ns / 1000, why);
	if (ctl->ended_ns && (ctl->state & KFT_STATE_DETACHED))
		fprintf(out, "  program let go at %" PRIu64 " usec (kft record -p), its code as "
			"it was\n", ctl->ended_ns / 1000);
	else if (ctl->ended_ns)
		fprintf(out, "  program ended at %" PRIu64 " usec%s%s\n", ctl->ended_ns / 1000,
			ending ? ": " : "", ending ? ending : "");
	if (ctl->state & KFT_STATE_PAUSED)
		fprintf(out, "  tracing off: calls entered now are not logged (kft tracing on)\n");
	fprintf(out, "  stops %" PRIu64 "\n", ctl->state >> KFT_STATE_GEN_SHIFT);
	fprintf(out, "  threads %zu", tr->nthreads - stacks);
	if (stacks)
		fprintf(out, " (and %zu coroutine stack%s)", stacks, stacks == 1 ? "" : "s");
	fputc('\n', out);
	print_running(out, tr);
	fprintf(out, "  entries %" PRIu64 " (%" PRIu64 " unfinished)\n", entries,
		kft_trace_unfinished(tr));
	kft_view_losses(out, tr, "  lost: ");
	fprintf(out, "  deepest stack %" PRIu64 " bytes", tr->max_stack);
	if (tr->max_stack)
		fprintf(out, " (thread %u)", tr->max_stack_tid);
	fprintf(out, "\n");
	for (size_t i = 0; i < tr->nthreads; i++)
		if (tr->threads[i].hdr.counters.watch_hits)
			print_watch_chain(out, &tr->threads[i], sz);
	if (ctl->hook_cost_ns)
		fprintf(out, "  hook cost %" PRIu64 " ns per call (%" PRIu64 " ns of it inside the "
			"call's own time)%s\n", ctl->hook_cost_ns, ctl->hook_inside_ns,
			(ctl->mode & KFT_MODE_COMPENSATE) ? ", taken out of durations" : "");
	if (comp.known)
		fprintf(out, "  compensation: each call less its hooks' own time and %.1f ns a stretch "
			"of program between two hooks (its tries within %.1f ns either side), about "
			"%.0f ns a nested call in all\n", comp.gap_ns, comp.spread_ns, comp.taken_ns);
}
