/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A thread's .args file of version 3 read where it lies: its records are
 * in the order of their calls' entries, so a view that asks for calls in
 * that order finds each by reading on (a window of the file and a mark
 * every ARGS_MARK_EVERY records are all that is kept), and one that asks
 * out of order starts from the mark before. Opening checks every record
 * once. Versions 1 and 2 (records at entry and exit) are indexed in
 * memory instead (call-args.c).
 */
#ifndef KFT_ARGS_FILE_H
#define KFT_ARGS_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace-format.h"

/* One record's head, either version's, as one. */
struct kft_argrec_parts {
	uint64_t entry_ns, func, sp;
	uint32_t tid, session;	/* version 3: the file's */
	size_t head_size, size;
	uint8_t kind, nvals;
};

/* The record at data (avail bytes there) of a file whose header is hdr:
 * 0 if whole and as its head says (*p its head), 1 if damaged, 2 if cut
 * short by avail. */
int kft_argrec_parse(const struct kft_args_hdr *hdr, const unsigned char *data, size_t avail,
		     struct kft_argrec_parts *p);

struct kft_args_mark {
	uint64_t off;		/* a record's offset from KFT_ARGS_OFF */
	uint64_t entry_ns;	/* its call's entry */
};

struct kft_args_file {
	char *path;
	uint32_t session, tid;
	uint64_t end;		/* whole, checked records end here */
	uint64_t nrecs;
	struct kft_args_mark *marks;
	size_t nmarks, marks_cap;
	uint64_t pos;		/* the cursor: the record last looked at */
	unsigned char *win;	/* the file from win_off (from KFT_ARGS_OFF) on */
	uint64_t win_off;
	size_t win_len;
};

/* The file at path, file_size bytes long, whose header is h, checked: 0
 * (f ready, its records before any damage, cut or unreadable part kept:
 * *damaged says whether there was one), 1 if its records are not in
 * entry order (read it as an older file is), -1 out of memory. */
int kft_args_file_open(struct kft_args_file *f, const char *path, const struct kft_args_hdr *h,
		       uint64_t file_size, bool *damaged);
void kft_args_file_close(struct kft_args_file *f);

/* The record of the call that entered at entry_ns in function func:
 * NULL if none. It lies in f's window: good till the next look. */
const unsigned char *kft_args_file_find(struct kft_args_file *f, uint64_t entry_ns,
					uint64_t func);

#endif
