/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every kernel setting kft changes goes through a journal: the old value
 * is written to a file first, then the setting is changed. Restoring
 * replays the journal backwards, so the kernel ends as it was found, also
 * after Ctrl-C, an error, or a kft that was killed (the next kft finds
 * the journal and restores it).
 */
#ifndef KFT_JOURNAL_H
#define KFT_JOURNAL_H

#include <stdbool.h>
#include <sys/types.h>

#include "../common/error.h"

struct kft_journal {
	char *path;
	int fd;
};

/*
 * Start a journal at path, owned by this process (owner_pid) or, for
 * `kft kernel prime`, by nobody alive (0). Fails if a journal is there.
 */
int kft_journal_begin(struct kft_journal *j, const char *path, pid_t owner_pid,
		      struct kft_error *err);

void kft_journal_close(struct kft_journal *j);

/* Who holds the journal at path: 1 and *owner (0: a `kft kernel` session)
 * if there is one, 0 if none, -1 on error. */
int kft_journal_owner(const char *path, pid_t *owner, struct kft_error *err);

/* Save file's value, then write value to it. */
int kft_journal_set(struct kft_journal *j, const char *file, const char *value,
		    struct kft_error *err);

/* Save a list file (filters, pids), then replace its contents with value
 * ("" empties it). */
int kft_journal_set_list(struct kft_journal *j, const char *file, const char *value,
			 struct kft_error *err);

/* Append text to file; restoring appends undo to it. */
int kft_journal_append(struct kft_journal *j, const char *file, const char *text,
		       const char *undo, struct kft_error *err);

/* Only note that restoring must append undo to file (the caller makes
 * the change itself, through a file it holds open). */
int kft_journal_note(struct kft_journal *j, const char *file, const char *undo,
		     struct kft_error *err);

/* Undo everything in the journal at path, newest first, and remove it.
 * Every step is tried; the first failure is reported. */
int kft_journal_restore(const char *path, struct kft_error *err);

/* Small helpers on kernel files. */
char *kft_file_read(const char *path, struct kft_error *err);
int kft_file_write(const char *path, const char *text, bool append, struct kft_error *err);
/* All of text to an open file (ftrace's list files take a word a write). */
int kft_fd_write(int fd, const char *text);

#endif
