// SPDX-License-Identifier: GPL-2.0-only
/* Opening a trace directory and its symbols, for the commands that read one. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

bool kft_cli_no_demangle;

bool kft_cli_trace_missing(const char *path, const char *also)
{
	if (!access(path, F_OK))
		return false;
	if (errno == ENOENT)
		kft_cli_fail("%s: no such trace directory%s (record one with `kft "
			     "record`)",
			     path, also);
	else
		kft_cli_fail("%s: %s", path, strerror(errno));
	return true;
}

void kft_cli_symbol_warnings(struct kft_symbolizer *sz)
{
	char *const *warnings;
	size_t n = sz ? kft_symbolizer_take_warnings(sz, &warnings) : 0;

	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "kft: warning: %s\n", warnings[i]);
}

int kft_cli_open_trace(const char *dir, bool shows_watch, struct kft_trace *tr,
		       struct kft_symbolizer **sz)
{
	return kft_cli_open_trace_as(dir, shows_watch, 0, tr, sz);
}

int kft_cli_open_trace_as(const char *dir, bool shows_watch, unsigned int flags,
			  struct kft_trace *tr, struct kft_symbolizer **sz)
{
	struct kft_error err;

	*sz = NULL;
	if (kft_trace_open_as(tr, dir, flags, &err))
		return kft_cli_fail("%s", err.msg);
	for (size_t i = 0; i < tr->nskipped; i++)
		fprintf(stderr, "kft: warning: %s; that thread's calls are left out\n",
			tr->skipped[i]);
	if (tr->switches_error)
		fprintf(stderr, "kft: warning: %s; the trace is read without its context "
			"switches\n", tr->switches_error);
	if (tr->args_error)
		fprintf(stderr, "kft: warning: %s; that thread's saved arguments are left out\n",
			tr->args_error);
	if (tr->args_lost)
		fprintf(stderr, "kft: warning: the arguments or return values of %" PRIu64
			" calls could not be saved (no room for them on the trace's file "
			"system)\n", tr->args_lost);
	/* a view of calls leaves the stack-watch rows out: it says where they are */
	if (!shows_watch && tr->totals.watch_hits)
		fprintf(stderr, "kft: the stack watch fired %" PRIu64 " times: its rows (Delta -2) "
			"are not calls, and are in kft log; kft status shows the deepest chain\n",
			tr->totals.watch_hits);
	if (!(*sz = kft_symbolizer_new(dir, &err))) {
		kft_trace_close(tr);
		return kft_cli_fail("%s", err.msg);
	}
	kft_symbolizer_set_demangle(*sz, !kft_cli_no_demangle);
	kft_cli_symbol_warnings(*sz);
	return 0;
}

void kft_cli_close_trace(struct kft_trace *tr, struct kft_symbolizer *sz)
{
	uint64_t bad = kft_trace_damaged(tr);

	if (bad)
		fprintf(stderr, "kft: warning: %llu compressed blocks of %u calls failed their "
			"checksum; their calls show as function 0\n", (unsigned long long)bad,
			KFT_ZCHUNK_RECS);
	if (sz)
		kft_cli_symbol_warnings(sz);
	kft_symbolizer_free(sz);
	kft_trace_close(tr);
}
