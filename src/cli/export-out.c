// SPDX-License-Identifier: GPL-2.0-only
/* What kft export and kft flame share: their filter options, and writing
 * the trace to a file in one format and saying what was written. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../views/export.h"
#include "../views/flame.h"
#include "cli.h"

/* "20" (usec), "500ns", "20us", "3ms", "1s" into ns. */
static int parse_time(const char *s, int64_t *ns)
{
	static const struct {
		const char *unit;
		int64_t ns;
	} units[] = { { "", 1000 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		      { "s", 1000000000 } };
	char *end;
	long long v = strtoll(s, &end, 10);

	if (end == s || v < 0)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit) && v <= INT64_MAX / units[i].ns) {
			*ns = v * units[i].ns;
			return 0;
		}
	return -1;
}

/* The options export and flame share: 0 taken, 1 not one of them, -1
 * refused (said). only and notrace hold 64 globs each. */
int kft_cli_export_option(int c, struct kft_export_opts *o, const char **only,
			  const char **notrace, const char *cmd)
{
	switch (c) {
	case 'm':
		if (!parse_time(optarg, &o->min_ns))
			return 0;
		kft_cli_fail("%s: --min-duration: '%s' is not a time (20, 500ns, 20us, 3ms, 1s)",
			     cmd, optarg);
		return -1;
	case 'F':
	case 'N':
		if ((c == 'F' ? o->nonly : o->nnotrace) == 64) {
			kft_cli_fail("%s: 64 globs at most for --filter and for --notrace", cmd);
			return -1;
		}
		if (c == 'F')
			only[o->nonly++] = optarg;
		else
			notrace[o->nnotrace++] = optarg;
		return 0;
	case 'D':
		kft_cli_no_demangle = true;
		return 0;
	}
	return 1;
}

static void human_size(char *buf, size_t size, long long bytes)
{
	if (bytes >= 10LL << 20)
		snprintf(buf, size, "%lld MiB", bytes >> 20);
	else if (bytes >= 10LL << 10)
		snprintf(buf, size, "%lld KiB", bytes >> 10);
	else
		snprintf(buf, size, "%lld bytes", bytes);
}

/* Open dir, write file in format ('p' perfetto, 'c' chrome, 'f' folded,
 * 's' flame graph SVG, 't' flame chart SVG), say what was written. */
int kft_cli_export_write(const char *file, const char *dir, char format,
			 struct kft_export_opts *o, const char *title)
{
	struct kft_export_result res;
	struct kft_symbolizer *sz;
	struct kft_error err;
	struct kft_trace tr;
	char size[32];
	struct stat st;
	FILE *out;
	int ret;

	if (kft_cli_open_trace(dir, false, &tr, &sz))
		return 1;
	out = strcmp(file, "-") ? fopen(file, "we") : stdout;
	if (!out) {
		kft_cli_close_trace(&tr, sz);
		return kft_cli_fail("%s: %m", file);
	}
	o->progress = out != stdout && isatty(STDERR_FILENO);
	ret = format == 'p'   ? kft_export_perfetto(out, &tr, sz, o, !o->raw, &res, &err)
	      : format == 'c' ? kft_export_chrome(out, &tr, sz, o, &res, &err)
	      : format == 'f' ? kft_export_folded(out, &tr, sz, o, &res, &err)
	      : format == 's' ? kft_view_flame(out, &tr, sz, o, title, &res, &err)
			      : kft_view_flame_chart(out, &tr, sz, o, title, &res, &err);
	if (out != stdout && fclose(out) && !ret)
		ret = kft_error_set(&err, "%s: %m", file);
	kft_cli_close_trace(&tr, sz);
	if (ret)
		return kft_cli_fail("%s", err.msg);
	if (out != stdout && !stat(file, &st)) {
		human_size(size, sizeof(size), (long long)st.st_size);
		fprintf(stderr, "kft: wrote %s: %llu %s of %llu calls, %s\n", file,
			(unsigned long long)res.written,
			format == 'c'	? "events"
			: format == 'p' ? "slices"
			: format == 'f' ? "stacks"
					: "boxes",
			(unsigned long long)res.calls, size);
	}
	return 0;
}
