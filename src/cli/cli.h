/* SPDX-License-Identifier: GPL-2.0-only */
/* The kft command line: one file per subcommand. */
#ifndef KFT_CLI_H
#define KFT_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "../common/mono-clock.h"
#include "../common/version.h"
#include "../format/reader.h"
#include "../record/trace-dir.h"
#include "../symbols/symbolizer.h"

#define KFT_DEFAULT_DIR "kft.data"

int kft_cmd_record(int argc, char **argv);
int kft_cmd_log(int argc, char **argv);
int kft_cmd_status(int argc, char **argv);
int kft_cmd_compress(int argc, char **argv);
int kft_cmd_control(int argc, char **argv); /* prime, start, stop, tracing */
int kft_cmd_config(int argc, char **argv);
int kft_cmd_ftrace(int argc, char **argv);
int kft_cmd_export(int argc, char **argv);
int kft_cmd_flame(int argc, char **argv);
int kft_cmd_stats(int argc, char **argv);
int kft_cmd_diff(int argc, char **argv);
int kft_cmd_latency(int argc, char **argv);
int kft_cmd_kd(int argc, char **argv);
int kft_cmd_addr2sym(int argc, char **argv);
int kft_cmd_sym2addr(int argc, char **argv);
int kft_cmd_kernel(int argc, char **argv);
int kft_cmd_functions(int argc, char **argv);
int kft_cmd_pipe(int argc, char **argv);
int kft_cmd_embed(int argc, char **argv);

/* Print "kft: msg" to stderr; returns 1 for `return kft_cli_fail(...)`. */
int kft_cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A step below the command line returned ret: when it failed (not 0),
 * its error is said as kft_cli_fail() says one, and kft_cli_fail()'s 1 returned; else 0.
 * Steps chain with ||. */
int kft_cli_said(int ret, const struct kft_error *err);
/* A line a step below has for the user (its say callback), on stderr as
 * kft_cli_fail says one; ctx unused. */
void kft_cli_say(void *ctx, const char *line);

/* Whether path is missing (and then says so, as every reader of a trace
 * does: with what to do); also names what else path may be (" or log"). */
bool kft_cli_trace_missing(const char *path, const char *also);
/* Open the trace in dir, with its symbols; on error say so on stderr and
 * return 1. A view that does not show the stack watch's rows (shows_watch
 * false) has this say where they are. Close with kft_cli_close_trace(). */
int kft_cli_open_trace(const char *dir, bool shows_watch, struct kft_trace *tr,
		       struct kft_symbolizer **sz);
/* The same, opened as flags say (KFT_OPEN_*, format/reader.h). */
int kft_cli_open_trace_as(const char *dir, bool shows_watch, unsigned int flags,
			  struct kft_trace *tr, struct kft_symbolizer **sz);
/* --no-demangle of the commands that print names: C++ names as the
 * symbol table has them */
extern bool kft_cli_no_demangle;
void kft_cli_close_trace(struct kft_trace *tr, struct kft_symbolizer *sz);
/* What the symbolizer found wrong since it was last asked, as warnings
 * on stderr (sz may be NULL). */
void kft_cli_symbol_warnings(struct kft_symbolizer *sz);

/* kft record's run has ended and left its trace in dir (a hook of
 * record/record.h; ctx unused): its names saved, what it lost and what
 * the config asked for that never came said, and with compress its
 * records compressed (raw_only: cut down only). */
void kft_cli_finish_trace(void *ctx, const char *dir, bool compress, bool raw_only);

/* A command line a command does not take: its synopsis (usage up to its
 * first empty line) and a pointer to --help, on stderr. */
void kft_cli_usage_error(const char *usage);

/* If argv has -h/--help before "--", print usage to stdout and return true. */
bool kft_cli_wants_help(int argc, char **argv, const char *usage);

/* What export and flame share (export-out.c). An option they both take
 * (--min-duration, --filter, --notrace, --no-demangle): 0 taken, 1 not
 * one of them, -1 refused (said); only and notrace hold 64 globs each. */
struct kft_export_opts;
int kft_cli_export_option(int c, struct kft_export_opts *o, const char **only,
			  const char **notrace, const char *cmd);
/* Open dir, write file in format ('p' perfetto, 'c' chrome, 'f' folded,
 * 's' flame graph SVG, 't' flame chart SVG), say what was written: the
 * exit status. */
int kft_cli_export_write(const char *file, const char *dir, char format,
			 struct kft_export_opts *o, const char *title);

#endif
