// SPDX-License-Identifier: GPL-2.0-only
/*
 * Chrome's Trace Event Format (JSON), as chrome://tracing, Perfetto's UI
 * and speedscope read it: every call a complete event, written as the
 * call stream comes, threads and processes named by metadata events, the
 * markers instant events at the end.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../format/call-args.h"
#include "export-common.h"
#include "views.h"

/* s as a JSON string's contents. */
static void put_json(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			putc(ch, out);
	}
}

/* ns as microseconds with three decimals. */
static void put_us(FILE *out, uint64_t ns)
{
	fprintf(out, "%" PRIu64 ".%03u", ns / 1000, (unsigned int)(ns % 1000));
}

static void put_name_event(FILE *out, const char *what, uint32_t pid, uint32_t tid,
			   const char *name, bool *first)
{
	fprintf(out, "%s\n{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32
		     ",\"args\":{\"name\":\"", *first ? "" : ",", what, pid, tid);
	put_json(out, name);
	fputs("\"}}", out);
	*first = false;
}

/* Each process and thread by the name its thread file gives (the first
 * file of a process names it). */
static void put_names(FILE *out, const struct kft_trace *tr, bool *first)
{
	for (size_t i = 0; i < tr->nthreads; i++) {
		const struct kft_thread_file *th = &tr->threads[i];
		char comm[sizeof(th->hdr.comm) + 1];
		bool named = false;

		memcpy(comm, th->hdr.comm, sizeof(th->hdr.comm));
		comm[sizeof(th->hdr.comm)] = '\0';
		if (!comm[0])
			snprintf(comm, sizeof(comm), "%" PRIu32, th->hdr.tid);
		for (size_t j = 0; j < i; j++)
			named |= tr->threads[j].hdr.pid == th->hdr.pid;
		if (!named)
			put_name_event(out, "process_name", th->hdr.pid, th->hdr.pid, comm, first);
		put_name_event(out, "thread_name", th->hdr.pid, th->hdr.tid, comm, first);
	}
}

/* The markers (kft_printf, kft_mark): instant events on their threads. */
static void put_marks(FILE *out, const struct export_ctx *x, bool *first,
		      struct kft_export_result *res)
{
	for (size_t i = 0; i < x->tr->nmarks; i++) {
		const struct kft_mark *m = &x->tr->marks[i];
		char text[KFT_MARK_TEXT + 1];

		*kft_view_mark_text(text, m) = '\0';
		fputs(*first ? "\n{\"ph\":\"i\",\"s\":\"t\",\"name\":\"" :
			       ",\n{\"ph\":\"i\",\"s\":\"t\",\"name\":\"", out);
		put_json(out, text);
		fprintf(out, "\",\"cat\":\"marker\",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32 ",\"ts\":",
			m->pid, m->tid);
		put_us(out, m->ns > x->base ? m->ns - x->base : 0);
		fputs("}", out);
		*first = false;
		res->written++;
	}
}

/* A slice's args and its end: inherited or unfinished, and the call's
 * saved arguments and return value, as the other views write them. */
static void put_args(FILE *out, const struct kft_trace *tr, const struct kft_call *c)
{
	const char *sep = ",\"args\":{";
	struct kft_call_args a;

	if (c->flags & KFT_CALL_INHERITED) {
		fputs(",\"args\":{\"inherited\":true", out);
		sep = ",";
	} else if (c->dur_ns < 0) {
		fputs(",\"args\":{\"unfinished\":true", out);
		sep = ",";
	}
	if (tr->nargs && kft_call_args(tr, c, &a)) {
		struct kft_named_value v[KFT_ARGSPEC_ITEMS];
		int n = kft_call_args_named(&a, c->dur_ns >= 0, v, KFT_ARGSPEC_ITEMS);

		for (int i = 0; i < n; i++) {
			fprintf(out, "%s\"%s\":\"", sep, v[i].name);
			put_json(out, v[i].text);
			fputc('"', out);
			sep = ",";
		}
	}
	fputs(sep[0] == ',' && sep[1] == '\0' ? "}}" : "}", out);
}

int kft_export_chrome(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
		      const struct kft_export_opts *o, struct kft_export_result *res,
		      struct kft_error *err)
{
	struct export_ctx x;
	struct kft_calls *cs = NULL;
	struct kft_call c;
	bool first = true;
	char how[64];
	int ret = -1;

	memset(res, 0, sizeof(*res));
	if (kft_export_begin(&x, tr, sz, o, err) || !(cs = kft_calls_open_trees(tr, NULL, 0, err)))
		goto out;
	x.total = kft_calls_total(cs);
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", out);
	put_names(out, tr, &first);
	while (kft_calls_next(cs, &c) > 0) {
		uint32_t f;

		kft_export_progress(&x);
		if (c.dur_ns == -2)
			continue;	/* a stack-watch row */
		/* a fork child's inherited call is drawn, counted with its parent */
		res->calls += !(c.flags & KFT_CALL_INHERITED);
		if (kft_export_func(&x, &c, &f)) {
			kft_error_set(err, "out of memory");
			goto out;
		}
		if (!kft_export_kept(&x, &c, f))
			continue;
		fputs(first ? "\n{\"ph\":\"X\",\"name\":\"" : ",\n{\"ph\":\"X\",\"name\":\"", out);
		put_json(out, x.names.funcs[f].name);
		fprintf(out, "\",\"cat\":\"%s\",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32 ",\"ts\":",
			(c.flags & KFT_REC_KERNEL) ? "kernel" : "user", c.pid, c.tid);
		put_us(out, kft_export_entry(&x, &c));
		fputs(",\"dur\":", out);
		put_us(out, kft_export_duration(&x, &c));
		put_args(out, tr, &c);
		first = false;
		res->written += !(c.flags & KFT_CALL_INHERITED);
	}
	put_marks(out, &x, &first, res);
	fputs("\n]", out);
	if (kft_view_ending(tr, how, sizeof(how))) {
		/* the viewers show otherData as the trace's metadata */
		fputs(",\"otherData\":{\"program_ended\":\"", out);
		put_json(out, how);
		fputs("\"}", out);
	}
	fputs("}\n", out);
	ret = ferror(out) ? kft_error_set(err, "write error") : 0;
out:
	kft_calls_close(cs);
	kft_export_end(&x);
	return ret;
}
