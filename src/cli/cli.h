/* SPDX-License-Identifier: GPL-2.0-only */
/* The kft command line: one file per subcommand. */
#ifndef KFT_CLI_H
#define KFT_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "../format/reader.h"
#include "../symbols/symbolizer.h"

#define KFT_VERSION "0.1.0"
#define KFT_DEFAULT_DIR "kft.data"

int cmd_record(int argc, char **argv);
int cmd_log(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_control(int argc, char **argv);	/* prime, start, stop */
int cmd_ftrace(int argc, char **argv);
int cmd_kd(int argc, char **argv);
int cmd_addr2sym(int argc, char **argv);
int cmd_sym2addr(int argc, char **argv);

/* Print "kft: msg" to stderr; returns 1 for `return fail(...)`. */
int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Open the trace in dir, with its symbols if asked; on error say so on
 * stderr and return 1. Close with close_trace(). */
int open_trace(const char *dir, bool symbols, struct kft_trace *tr, struct kft_symbolizer **sz);
void close_trace(struct kft_trace *tr, struct kft_symbolizer *sz);

/* If argv has -h/--help before "--", print usage to stdout and return true. */
bool wants_help(int argc, char **argv, const char *usage);

#endif
