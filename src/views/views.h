/* SPDX-License-Identifier: GPL-2.0-only */
/* Views: each turns a trace into one text format on a stream. */
#ifndef KFT_VIEWS_H
#define KFT_VIEWS_H

#include <stdbool.h>
#include <stdio.h>

#include "../format/reader.h"
#include "../symbols/symbolizer.h"

struct kft_log_opts {
	bool raw;	/* hex addresses, as /proc/kft_data printed them */
	bool ns;	/* nanoseconds instead of microseconds */
	/* the trace whose saved arguments fill KFT's SAVE_ARGS columns
	 * (Frame ptr, Arg 1-3), or NULL: no such columns */
	const struct kft_trace *args;
};

/* The /proc/kft_data layout. Returns 0, or -1 with err set. */
int kft_view_log(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		 const struct kft_log_opts *opts, struct kft_error *err);

/* Its column titles, and one call's row (Entry counted from mark). */
void kft_view_log_columns(FILE *out, const struct kft_log_opts *opts);
void kft_view_log_row(FILE *out, const struct kft_call *c, uint64_t mark,
		      struct kft_symbolizer *sz, const struct kft_log_opts *opts);
/* A marker's row: '#' for its Delta, its text for Function and Caller. */
void kft_view_log_mark_row(FILE *out, const struct kft_mark *m, uint64_t mark,
			   const struct kft_log_opts *opts);

/* The /proc/kft status text. */
void kft_view_status(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz);

enum kft_ftrace_tracer { KFT_FTRACE_GRAPH, KFT_FTRACE_FUNCTION, KFT_FTRACE_LATENCY };

/* What ftrace's layouts show: the tracer, and iter_ctrl's options. */
struct kft_ftrace_opts {
	enum kft_ftrace_tracer tracer;
	bool switches;		/* where each thread left the CPU, for how long */
	bool print_parent;	/* function: " <-caller" (on by default) */
	bool sym_offset;	/* name+0xoffset */
	bool sym_addr;		/* and " <address>" */
	bool raw, hex;		/* function: numbers only, decimal or hex */
	bool verbose;		/* latency: every field spelled out */
};

/* iter_ctrl's defaults: print-parent, the rest off. */
void kft_ftrace_opts_init(struct kft_ftrace_opts *o);
/* One option of iter_ctrl, as "sym-offset" or "noprint-parent": 0, or -1
 * when unknown. */
int kft_ftrace_opts_set(struct kft_ftrace_opts *o, const char *word);

/* ftrace's `trace` file layouts (and function's latency_trace), one
 * thread after another. */
int kft_view_ftrace(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		    const struct kft_ftrace_opts *o, struct kft_error *err);
/* Their headers, and one call alone as each shows it, for a live stream
 * (kft pipe): function's line, or function_graph's line of a call that
 * has ended, "f();" with its duration, indented by its depth. */
void kft_view_ftrace_header(FILE *out, const struct kft_ftrace_opts *o);
void kft_view_ftrace_row(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			 const struct kft_call *c, const struct kft_ftrace_opts *o);
/* A marker alone: trace_marker's line, or a comment indented by the
 * calls its thread had open. */
void kft_view_ftrace_mark(FILE *out, const struct kft_trace *tr, const struct kft_mark *m,
			  const struct kft_ftrace_opts *o);

/* One line per thread that lost calls (a full log, too many call sites,
 * too deep), each starting with prefix: how many, why, what to raise.
 * Returns 1 if any were lost. */
int kft_view_losses(FILE *out, const struct kft_trace *tr, const char *prefix);
/* What the config asked for and the run never met (unreached.c). */
void kft_view_unreached(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			const char *prefix);

/* latency_trace's delay mark for ns to the next line: '!' over 100 us,
 * '+' over 1 us, else ' '. */
char kft_view_delay_mark(uint64_t ns);

/* A marker's text at p, on one line (control characters as '?'):
 * returns its end. At most KFT_MARK_TEXT bytes. */
char *kft_view_mark_text(char *p, const struct kft_mark *m);

/* How the program ended ("exited 0", "killed by signal 9 (SIGKILL)") into
 * buf, or NULL when the trace does not say. */
const char *kft_view_ending(const struct kft_trace *tr, char *buf, size_t size);
/* Whether the run has stopped (by a stop, or, once started, by the end of
 * its program), and when and why, in KFT's words. */
bool kft_view_stopped(const struct kft_trace *tr, struct kft_symbolizer *sz, uint64_t *at_ns,
		      char *why, size_t size);

/* Why a run started or stopped, in KFT's words ("entry to function f"). */
const char *kft_view_fired(const struct kft_fired *f, bool is_stop, struct kft_symbolizer *sz,
			   char *buf, size_t size);

#endif
