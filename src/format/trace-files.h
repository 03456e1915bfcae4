/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The files of a trace directory (kft-data(5)): every name kft gives
 * one, the test of a directory that holds a trace, and the files a run
 * begins with (config, control, info), made the same way by `kft record`
 * (record/trace-dir.c) and by a program that records itself (kft embed:
 * runtime/static-run.c).
 */
#ifndef KFT_TRACE_FILES_H
#define KFT_TRACE_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/error.h"
#include "trace-format.h"

#define KFT_CONTROL_FILE "control"
#define KFT_CONFIG_FILE "config"
#define KFT_INFO_FILE "info"
#define KFT_MAPS_PREFIX "maps-"		/* maps-SESSION: a process image's maps */
#define KFT_SPARE_PREFIX "spare-"	/* spare-N: a thread file made ahead */
#define KFT_LATENCY_FUNC_FILE "latency-func"	/* kft record --latency's FUNC */
#define KFT_SYMBOLS_FILE "symbols"	/* the names, saved when the run ends */
#define KFT_SWITCHES_FILE "switches"	/* context switches */
#define KFT_MARKS_FILE "marks"		/* kft_mark and kft_printf's markers */
#define KFT_ENUMS_FILE "enums"		/* enum types' names for values */

/* Whether name is one kft gives a file of a trace directory, exactly. */
bool kft_trace_file_name(const char *name);

/* Whether directory dfd holds a trace: a control file that says so. */
bool kft_trace_dir_holds(int dfd);

/* The info file's text into buf (size bytes): kft's version, the
 * format's, the command and its status line(s), "status = ...\n". */
void kft_trace_info(char *buf, size_t size, const char *version, const char *command,
		    const char *status);

/* -1 with err saying what to run, if path is a program (an ELF file)
 * given where a trace or a log was meant; else 0. */
int kft_not_a_program(const char *path, struct kft_error *err);

/* File name of directory dfd holds len bytes of data: made anew, or only
 * if there is none (excl). 0, or -1 with errno. */
int kft_trace_put_file(int dfd, const char *name, const void *data, size_t len, bool excl);

#endif
