// SPDX-License-Identifier: GPL-2.0-only
#include "../format/compress-dir.h"
#include "../format/reader.h"
#include "../symbols/symbols-save.h"
#include "../views/views.h"
#include "cli.h"

/*
 * The program has ended; from one reading of the trace: save the names of
 * the functions it holds (so that it reads the same when the program is
 * rebuilt, removed or elsewhere), and say what it could not hold and what
 * the config asked for that never came. With compress, what the runtime's
 * helper had not compressed (the end of each log, fork children's logs, a
 * run on one CPU) is compressed meanwhile (cut down only, raw_only;
 * failing leaves it raw): the reading has the logs open already and asks
 * for no record, and the two take about as long.
 */
void kft_cli_finish_trace(void *ctx, const char *dir, bool compress, bool raw_only)
{
	struct kft_compress_job job;
	struct kft_symbolizer *sz;
	struct kft_trace tr;
	struct kft_error err;
	bool opened;

	(void)ctx;
	/* (held: this kft compresses it, but only after this reading) */
	opened = !kft_trace_open_as(&tr, dir,
				    KFT_OPEN_HELD | KFT_OPEN_NO_ARGS | KFT_OPEN_NO_SWITCHES |
					    KFT_OPEN_NO_RECORDS,
				    &err);	/* (if not, the views will say why) */
	if (compress)
		kft_trace_compress_start(&job, dir, raw_only);
	if (opened) {
		/* names from the files on disk, not from a symbols file saved before */
		sz = kft_symbolizer_new_from_disk(dir, &err);
		if (!sz || kft_symbols_save(dir, &tr, sz, &err))
			fprintf(stderr, "kft: warning: %s; names will come from the files on disk\n",
				err.msg);
		kft_view_losses(stderr, &tr, "kft: ");
		kft_view_unreached(stderr, &tr, sz, "kft: ");
		kft_symbolizer_free(sz);
		kft_trace_close(&tr);
	}
	if (compress && kft_trace_compress_wait(&job))
		fprintf(stderr, "kft: warning: %s; those records stay %s\n", job.err.msg,
			raw_only ? "where they are" : "uncompressed");
}

