// SPDX-License-Identifier: GPL-2.0-only
/*
 * `kft log`: the layout of KFT's /proc/kft_data, so that kd, addr2sym and
 * every script keyed on its header keep working. Rows are in entry order;
 * Entry is relative to the first start of the run; Delta -1 is a call
 * still open when the run stopped or the program ended, -2 a stack-watch
 * chain. A thread id followed by "i" marks signal-handler context, the
 * user-space counterpart of KFT's interrupt pid -1.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../config/config.h"
#include "../format/call-args.h"
#include "../format/call-stream.h"
#include "../symbols/rewrite.h"
#include "put.h"
#include "views.h"

static void print_marks(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz)
{
	const struct kft_control *ctl = &tr->ctl;
	uint64_t at_ns;
	char why[512];

	/* after kft config, the header tells of the run now installed; the
	 * calls of the runs before it stay, earlier in the log */
	if (ctl->run_id == 2)
		fprintf(out, "Runs before this one: 1 (its config kept as config-run1)\n");
	else if (ctl->run_id > 2)
		fprintf(out, "Runs before this one: %u (their configs kept as config-run1 to "
			"config-run%u)\n", ctl->run_id - 1, ctl->run_id - 1);
	if (ctl->start.how)
		fprintf(out, "Logging started at %" PRIu64 " usec by %s\n",
			(ctl->run_id > 1 ? ctl->start.mark_ns : ctl->first_start_ns) / 1000,
			kft_view_fired(&ctl->start, false, sz, why, sizeof(why)));
	else
		fprintf(out, "Logging not yet started\n");
	if (kft_view_stopped(tr, sz, &at_ns, why, sizeof(why)))
		fprintf(out, "Logging stopped at %" PRIu64 " usec by %s\n", at_ns / 1000, why);
	else
		fprintf(out, "Logging not yet stopped\n");
}

/* The run's active filters, a line each in KFT's words, under the Logging
 * lines as KFT's sample log has them; kft's own (notrace, graph, depth)
 * in the same manner. */
static void print_filters(FILE *out, const struct kft_config *cfg)
{
	char cpus[KFT_CPUS_STR_MAX];

	if (!cfg->has_funclist && !cfg->mintime && !cfg->maxtime && !cfg->noints &&
	    !cfg->onlyints && !cfg->cpus_set && !cfg->skip_list.set && !cfg->graph.set &&
	    !cfg->max_depth)
		return;
	fputc('\n', out);
	if (cfg->has_funclist)
		fprintf(out, "\t%zu-entry function list\n", cfg->nfuncs);
	if (cfg->mintime)
		fprintf(out, "\t%" PRIu64 " usecs minimum execution time\n", cfg->mintime);
	if (cfg->maxtime)
		fprintf(out, "\t%" PRIu64 " usecs maximum execution time\n", cfg->maxtime);
	if (cfg->noints)
		fprintf(out, "\tno functions in interrupt context\n");
	if (cfg->onlyints)
		fprintf(out, "\tno functions NOT in interrupt context\n");
	if (cfg->cpus_set)
		fprintf(out, "\tno functions entered on CPUs other than %s\n",
			kft_config_cpus_str(cfg, cpus, sizeof(cpus)));
	if (cfg->skip_list.set)
		fprintf(out, "\t%zu-entry notrace list\n", cfg->skip_list.n);
	if (cfg->graph.set)
		fprintf(out, "\t%zu-entry graph function list\n", cfg->graph.n);
	if (cfg->max_depth)
		fprintf(out, "\tno functions deeper than %" PRIu32 " calls\n", cfg->max_depth);
}

/*
 * KFT summed per-event and per-call counters into one total; every kft
 * counter counts calls, so the total is a count of calls.
 */
static void print_counters(FILE *out, const struct kft_trace *tr)
{
	const struct kft_config *cfg = &tr->cfg;
	const struct kft_counters *c = &tr->totals;
	uint64_t total = c->time_filtered + c->noints_filtered + c->onlyints_filtered +
			 c->funclist_filtered + tr->cpus_filtered;

	fprintf(out, "Filter Counters:\n");
	if (cfg->mintime || cfg->maxtime)
		fprintf(out, "\nExecution time filter count = %" PRIu64 "\n", c->time_filtered);
	if (cfg->noints)
		fprintf(out, "No Interrupt functions filter count = %" PRIu64 "\n",
			c->noints_filtered);
	if (cfg->onlyints)
		fprintf(out, "Only Interrupt functions filter count = %" PRIu64 "\n",
			c->onlyints_filtered);
	if (cfg->has_funclist)
		fprintf(out, "Function List filter count = %" PRIu64 "\n", c->funclist_filtered);
	if (cfg->cpus_set)
		fprintf(out, "CPU mask filter count = %" PRIu64 "\n", tr->cpus_filtered);
	fprintf(out, "Total entries filtered = %" PRIu64 "\n", total);
	fprintf(out, "Entries not found = %" PRIu64 "\n", c->not_found);
	if (c->log_full)
		fprintf(out, "Calls not logged because the log was full = %" PRIu64 "\n",
			c->log_full);
	if (c->overwritten)
		fprintf(out, "Entries overwritten (oldest first) = %" PRIu64 "\n", c->overwritten);
	if (c->depth_overflow)
		fprintf(out, "Calls deeper than the shadow stack = %" PRIu64 "\n", c->depth_overflow);
	if (c->unwound)
		fprintf(out, "Calls left by longjmp = %" PRIu64 "\n", c->unwound);
	if (c->sites_full)
		fprintf(out, "Calls not logged because the site table was full = %" PRIu64 "\n",
			c->sites_full);
	if (c->watch_hits)
		fprintf(out, "Stack watch firings = %" PRIu64 "\n", c->watch_hits);
	/* why those logs ended early, which no counter says */
	if (tr->ctl.disk_full)
		fprintf(out, "Logs ended early: no space left on the trace's file system\n");
	if (tr->ctl.threads_lost)
		fprintf(out, "Threads not traced (no log file could be made) = %" PRIu32 "\n",
			tr->ctl.threads_lost);
}

/* KFT's SAVE_ARGS columns of a call whose arguments were saved: the
 * stack pointer at its entry and its first three argument registers. */
static char *put_saved_args(char *p, const struct kft_trace *tr, const struct kft_call *c)
{
	struct kft_call_args a;

	if (!kft_call_args(tr, c, &a) || !a.args)
		return p;
	p += sprintf(p, "   %016" PRIx64, a.args->sp);
	for (int i = 0; i < 3; i++) {
		struct kft_argval v;

		p += sprintf(p, " %016" PRIx64,
			     kft_argrec_get(a.args, i, &v, NULL) ? v.value : (uint64_t)0);
	}
	return p;
}

void kft_view_log_row(FILE *out, const struct kft_call *c, uint64_t mark,
		      struct kft_symbolizer *sz, const struct kft_log_opts *opts)
{
	uint64_t unit = opts->ns ? 1 : 1000;
	int64_t entry = (int64_t)(c->entry_ns - mark) / (int64_t)unit;
	int64_t delta = c->dur_ns < 0 ? c->dur_ns : c->dur_ns / (int64_t)unit;
	int w = opts->ns ? 12 : 8;
	char fn[512], caller[512], line[1300], pid[24], *p = line;

	if (c->entry_ns < mark)
		entry = -(int64_t)((mark - c->entry_ns) / unit);
	p = kft_put_int(p, entry, w);
	*p++ = ' ';
	p = kft_put_int(p, delta, w);
	*p++ = ' ';
	p = kft_put_blanks(p, 7 - (int)kft_pid_label(pid, c->tid, c->coroutine, false));
	p = kft_put_str(p, pid, 0);
	*p++ = (c->flags & KFT_REC_SIGNAL) ? 'i' : ' ';
	*p++ = ' ';
	if (opts->raw) {
		snprintf(fn, sizeof(fn), " 0x%016" PRIx64 "               0x%016" PRIx64, c->func,
			 c->call_site);
		p = kft_put_str(p, fn, 0);
	} else {
		uint64_t image = kft_symbolizer_image(sz, c->map_session, c->entry_ns);

		kft_symbol_text(sz, image, c->func, false, fn, sizeof(fn));
		kft_caller_text(sz, image, c->call_site, true, caller, sizeof(caller));
		*p++ = ' ';
		p = kft_put_str(p, fn, 32);
		*p++ = ' ';
		p = kft_put_str(p, caller, 0);
	}
	if (opts->args)
		p = put_saved_args(p, opts->args, c);
	*p++ = '\n';
	fwrite(line, 1, (size_t)(p - line), out);
}

/* A marker's row: Entry, '#' where the Delta goes, PID, its text. */
void kft_view_log_mark_row(FILE *out, const struct kft_mark *m, uint64_t mark,
			   const struct kft_log_opts *opts)
{
	uint64_t unit = opts->ns ? 1 : 1000;
	int w = opts->ns ? 12 : 8;
	char line[KFT_MARK_TEXT + 64], pid[24], *p = line;

	p = kft_put_int(p, m->ns >= mark ? (int64_t)((m->ns - mark) / unit) :
					    -(int64_t)((mark - m->ns) / unit), w);
	*p++ = ' ';
	p = kft_put_blanks(p, w - 1);
	*p++ = '#';
	*p++ = ' ';
	p = kft_put_blanks(p, 7 - (int)kft_pid_label(pid, m->tid, 0, false));
	p = kft_put_str(p, pid, 0);
	*p++ = m->in_signal ? 'i' : ' ';
	*p++ = ' ';
	*p++ = ' ';
	p = kft_view_mark_text(p, m);
	*p++ = '\n';
	fwrite(line, 1, (size_t)(p - line), out);
}

void kft_view_log_columns(FILE *out, const struct kft_log_opts *opts)
{
	const char *args = opts->args ? "   Frame ptr        Arg 1            Arg 2            "
					"Arg 3" : "";

	if (opts->ns) {
		fprintf(out, "  Entry (ns)   Delta (ns)     PID        Function                        Caller%s\n", args);
		fprintf(out, "------------ ------------ -------- ----------------                 ------------\n");
	} else {
		fprintf(out, " Entry    Delta     PID        Function                        Caller%s\n", args);
		fprintf(out, "-------- -------- -------- ----------------                 ------------\n");
	}
}

/*
 * --raw: where each file holding the trace's functions was loaded, a line
 * each ("Load base of FILE: 0x..."), so that kft addr2sym can take a PIE's
 * or a library's addresses back to the file's own. From the functions of
 * each thread's call sites; a file loaded at several places (processes of
 * one PIE) has a line for each.
 */
static void print_load_bases(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz)
{
	struct { const char *module; uint64_t base; } seen[KFT_ADDR2SYM_BASES * 4];
	size_t n = 0;

	for (size_t i = 0; i < tr->nthreads; i++) {
		const struct kft_thread_file *th = &tr->threads[i];
		uint32_t epochs = kft_symbolizer_epochs(sz, th->hdr.session);

		for (uint32_t e = 0; e < epochs; e++)
			for (uint64_t k = 0; k < th->nsites; k++) {
				uint64_t func = th->sites[k].func, base;
				struct kft_symbol sym;
				size_t j = 0;

				if (!kft_symbolize(sz, KFT_IMAGE(th->hdr.session, e), func, &sym) ||
				    !sym.module)
					continue;
				base = func - sym.offset - sym.sym_addr;
				while (j < n && (seen[j].base != base || strcmp(seen[j].module, sym.module)))
					j++;
				if (j < n || n == sizeof(seen) / sizeof(seen[0]))
					continue;
				seen[n].module = sym.module;
				seen[n++].base = base;
				fprintf(out, KFT_LOAD_BASE_LINE, sym.module, base);
			}
	}
	if (n)
		fputc('\n', out);
}

int kft_view_log(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		 const struct kft_log_opts *opts, struct kft_error *err)
{
	/* --raw: the symbols only say where files were loaded */
	struct kft_symbolizer *names = opts->raw ? NULL : sz;
	struct kft_calls *cs = kft_calls_open(tr, NULL, 0, err);
	struct kft_call c;
	uint64_t base = kft_trace_base_ns(tr);
	size_t m = 0;
	struct kft_log_opts o = *opts;

	if (!cs)
		return -1;
	o.args = tr->nargs ? tr : NULL;
	opts = &o;
	fprintf(out, "\nKernel Instrumentation Run ID %u\n\n", tr->ctl.run_id);
	print_marks(out, tr, names);
	print_filters(out, &tr->cfg);
	fprintf(out, "\n");
	if (opts->raw && sz)
		print_load_bases(out, tr, sz);
	print_counters(out, tr);
	fprintf(out, "\nNumber of entries after filters = %" PRIu64 "\n\n\n", kft_calls_total(cs));
	kft_view_log_columns(out, opts);
	/* markers go among the calls by time, before a call entered then */
	while (kft_calls_next(cs, &c)) {
		for (; m < tr->nmarks && tr->marks[m].ns <= c.entry_ns; m++)
			kft_view_log_mark_row(out, &tr->marks[m], base, opts);
		kft_view_log_row(out, &c, base, names, opts);
	}
	for (; m < tr->nmarks; m++)
		kft_view_log_mark_row(out, &tr->marks[m], base, opts);
	kft_calls_close(cs);
	return 0;
}
