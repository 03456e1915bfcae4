/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shared libraries a program loads at start, as its own dynamic
 * linker finds them, and the choice of those kft record --lib patches.
 */
#ifndef KFT_RECORD_LIBRARIES_H
#define KFT_RECORD_LIBRARIES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../common/error.h"

struct kft_loaded_lib {
	char *name;	/* as the program or a library needs it: libz.so.1 */
	char *path;	/* the file, resolved */
};

struct kft_lib_list {
	struct kft_loaded_lib *v;
	size_t n, cap;
};

/* The libraries path loads at start, in load order (none for a static
 * program). 0, or -1 with err. */
int kft_libraries_of(const char *path, struct kft_lib_list *out, struct kft_error *err);
/* The libraries process pid (running prog) has mapped now. */
int kft_libraries_mapped(pid_t pid, const char *prog, struct kft_lib_list *out,
			 struct kft_error *err);
void kft_lib_list_free(struct kft_lib_list *list);

/* Of all, prog's libraries, those the --lib patterns name (a glob of the
 * file's name, or a path), into out; runtime is libkft.so, whose own
 * libraries are refused (its hooks run on them). A pattern naming none,
 * or only refused ones, is an error (started says whether all are those
 * prog loads at start, or those it has now). 0, or -1 with err. */
int kft_libraries_chosen(const struct kft_lib_list *all, const char *prog, bool started,
			 const char *runtime, char *const *patterns, size_t npatterns,
			 struct kft_lib_list *out, struct kft_error *err);

#endif
