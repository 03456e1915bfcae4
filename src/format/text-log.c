// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/tempfile.h"

#include "text-log.h"
#include "trace-files.h"

#define MAX_WORDS 16

static bool parse_int(const char *s, int64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoll(s, &end, 10);
	return *s && !*end && !errno;
}

/* "33", "-1", "33.1" (cpu), "12i" (interrupt, the printk dump), "33/2"
 * (coroutine stack 2 of thread 33, maybe with an 'i') */
static bool parse_pid(struct kft_text_row *row, const char *s)
{
	char num[24];
	size_t n = strspn(s + (*s == '-'), "0123456789") + (*s == '-');
	const char *rest = s + n;

	if (n == 0 || n >= sizeof(num) || strlen(s) >= sizeof(row->pid))
		return false;
	row->coroutine = 0;
	if (*rest == '/' && isdigit((unsigned char)rest[1])) {
		char *end;

		row->coroutine = (uint32_t)strtoul(rest + 1, &end, 10);
		rest = end;
	}
	if (*rest == 'i' && !rest[1])
		row->irq = true;
	else if (*rest == '.' && isdigit((unsigned char)rest[1]) && !rest[2])
		;
	else if (*rest)
		return false;
	memcpy(num, s, n);
	num[n] = '\0';
	if (!parse_int(num, &row->tid))
		return false;
	if (row->tid == -1)
		row->irq = true;
	strcpy(row->pid, s);
	return true;
}

/* Times beyond this (126 years in usec, 46 days in the ns of `kft log
 * --ns`) are no times: in ns, entry plus delta must still fit 64 bits. */
#define MAX_TIME 4000000000000000LL

/* A row's times in ns: as printed, times the log's unit (1000 for KFT's
 * usec, 1 for `kft log --ns`), so a log in ns keeps its precision. */
static void in_ns(struct kft_text_row *row, int64_t unit)
{
	row->unit_ns = unit;
	row->entry_ns *= unit;
	if (row->delta_ns >= 0)
		row->delta_ns *= unit;
}

/* The row's strings point into line; its times as printed. */
static int parse_in_place(struct kft_text_row *row, char *line, const char *origin,
			  unsigned int lineno, struct kft_error *err)
{
	char *w[MAX_WORDS], *save = NULL, *tok;
	size_t n = 0, i = 0;

	memset(row, 0, sizeof(*row));
	row->line = lineno;
	for (tok = strtok_r(line, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == MAX_WORDS)
			break;
		w[n++] = tok;
	}
	if (n < 5)
		return kft_error_set(err, "%s:%u: expected 'Entry Delta PID Function Caller', "
				     "found %zu word%s", origin, lineno, n, n == 1 ? "" : "s");
	/* (before 0: entered as another thread started the run, its clock
	 * read before the start's) */
	if (!parse_int(w[i], &row->entry_ns) || row->entry_ns < -MAX_TIME ||
	    row->entry_ns > MAX_TIME)
		return kft_error_set(err, "%s:%u: '%s': Entry is not a time in usec", origin,
				     lineno, w[i]);
	i++;
	if (!strcmp(w[i], "no") && !strcmp(w[i + 1], "exit")) {
		row->delta_ns = -1;	/* KFI's words for an exit not seen */
		i += 2;
	} else {
		if (!parse_int(w[i], &row->delta_ns) || row->delta_ns < -2 ||
		    row->delta_ns > MAX_TIME)
			return kft_error_set(err, "%s:%u: '%s': Delta is not a duration in usec",
					     origin, lineno, w[i]);
		if (row->delta_ns == 4294967295LL)
			row->delta_ns = -1;	/* the printk dump's unset delta */
		i++;
	}
	if (n - i < 3)
		return kft_error_set(err, "%s:%u: expected PID, Function and Caller after the "
				     "Delta", origin, lineno);
	if (!parse_pid(row, w[i]))
		return kft_error_set(err, "%s:%u: '%s': not a PID", origin, lineno, w[i]);
	i++;
	/* a function given as "name+0xoff" (an address inside it, as -pg
	 * hooks may give, through addr2sym) is that function */
	{
		char *plus = strstr(w[i], "+0x");

		if (plus && plus != w[i])
			*plus = '\0';
	}
	row->func = w[i++];
	row->caller = w[i++];
	if (i < n) {
		/* keep the saved arguments as printed, one space apart, where
		 * they are: each word moves back next to the one before */
		char *end = w[i] + strlen(w[i]);

		for (size_t j = i + 1; j < n; j++) {
			size_t len = strlen(w[j]);

			*end++ = ' ';
			memmove(end, w[j], len);
			end += len;
		}
		*end = '\0';
		row->args = w[i];
	}
	return 0;
}

/* The row's strings as copies of its own. */
static int own_strings(struct kft_text_row *row, const char *origin, struct kft_error *err)
{
	bool args = row->args != NULL;

	row->func = strdup(row->func);
	row->caller = strdup(row->caller);
	row->args = args ? strdup(row->args) : NULL;
	if (!row->func || !row->caller || (args && !row->args)) {
		kft_text_row_free(row);
		return kft_error_set(err, "%s: out of memory", origin);
	}
	return 0;
}

bool kft_text_log_is_marker(const char *line)
{
	size_t i = strspn(line, " \t");

	i += strcspn(line + i, " \t\r\n");	/* Entry */
	i += strspn(line + i, " \t");
	return line[i] == '#' && (line[i + 1] == ' ' || line[i + 1] == '\t');
}

int kft_text_log_parse_row(struct kft_text_row *row, char *line, const char *origin,
			   unsigned int lineno, struct kft_error *err)
{
	if (parse_in_place(row, line, origin, lineno, err))
		return -1;
	in_ns(row, 1000);
	return own_strings(row, origin, err);
}

struct kft_text_reader {
	FILE *f;
	bool own;		/* f is ours to close */
	off_t start;		/* where the log begins in f */
	const char *origin;
	char *line;
	size_t cap;
	unsigned int lineno;
	bool data, ns, titled_ns;
	bool zero_unfinished;	/* KFT_TEXT_ZERO_UNFINISHED asked for */
	bool kfi, titled_kfi;	/* a KFI-era log: the same without asking */
	struct kft_text_row row;
};

/* Standard input, where it can be read again: itself when it is a file,
 * else a copy in a temporary file. */
static FILE *rereadable_stdin(off_t *start, bool *own, struct kft_error *err)
{
	struct stat st;
	char buf[65536];
	size_t n;
	FILE *copy;
	int fd;

	*start = lseek(STDIN_FILENO, 0, SEEK_CUR);
	if (*start >= 0 && !fstat(STDIN_FILENO, &st) && S_ISREG(st.st_mode)) {
		*own = false;
		return stdin;
	}
	*start = 0;
	*own = true;
	fd = kft_temp_file(err);
	if (fd < 0 || !(copy = fdopen(fd, "w+"))) {
		if (fd >= 0) {
			kft_error_set(err, "a temporary file: %s", strerror(errno));
			close(fd);
		}
		return NULL;
	}
	while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
		if (fwrite(buf, 1, n, copy) != n) {
			kft_error_set(err, "<stdin>: copying it to a temporary file: %s",
				      strerror(errno));
			fclose(copy);
			return NULL;
		}
	if (ferror(stdin) || fflush(copy)) {
		kft_error_set(err, "<stdin>: %s", strerror(errno));
		fclose(copy);
		return NULL;
	}
	return copy;
}

struct kft_text_reader *kft_text_reader_open(const char *path, unsigned int flags,
					     struct kft_error *err)
{
	struct kft_text_reader *r = calloc(1, sizeof(*r));

	if (!r) {
		kft_error_set(err, "out of memory");
		return NULL;
	}
	r->zero_unfinished = flags & KFT_TEXT_ZERO_UNFINISHED;
	r->origin = strcmp(path, "-") ? path : "<stdin>";
	if (strcmp(path, "-")) {
		r->f = fopen(path, "re");
		r->own = true;
		if (!r->f)
			kft_error_set(err, "%s: %s", path, strerror(errno));
	} else {
		r->f = rereadable_stdin(&r->start, &r->own, err);
	}
	if ((r->own && kft_not_a_program(path, err)) || !r->f || kft_text_reader_rewind(r, err)) {
		kft_text_reader_close(r);
		return NULL;
	}
	return r;
}

int kft_text_reader_rewind(struct kft_text_reader *r, struct kft_error *err)
{
	if (fseeko(r->f, r->start, SEEK_SET))
		return kft_error_set(err, "%s: %s", r->origin, strerror(errno));
	r->lineno = 0;
	r->data = r->ns = r->titled_ns = r->kfi = r->titled_kfi = false;
	return 0;
}

int kft_text_reader_next(struct kft_text_reader *r, const struct kft_text_row **row,
			 struct kft_error *err)
{
	while (getline(&r->line, &r->cap, r->f) > 0) {
		r->lineno++;
		if (!r->data) {
			/* post-processors key on the first line starting with dashes;
			 * `kft log --ns` titles its columns "Entry (ns)" */
			r->data = !strncmp(r->line, "--------", 8);
			r->ns = r->data && r->titled_ns;
			r->titled_ns = strstr(r->line, "Entry (ns)") != NULL;
			/* KFI's logs title the caller "Called At", KFT's "Caller" */
			r->kfi = r->data && r->titled_kfi;
			r->titled_kfi = strstr(r->line, "Called At") != NULL;
			continue;
		}
		if (strspn(r->line, " \t\r\n") == strlen(r->line) || kft_text_log_is_marker(r->line))
			continue;
		if (parse_in_place(&r->row, r->line, r->origin, r->lineno, err))
			return -1;
		if ((r->zero_unfinished || r->kfi) && !r->row.delta_ns)
			r->row.delta_ns = -1;
		in_ns(&r->row, r->ns ? 1 : 1000);
		*row = &r->row;
		return 1;
	}
	if (ferror(r->f))
		return kft_error_set(err, "%s: %s", r->origin, strerror(errno));
	if (!r->data)
		return kft_error_set(err, "%s: not a KFT log (no line starting with '--------' "
				     "before the data)", r->origin);
	return 0;
}

void kft_text_reader_close(struct kft_text_reader *r)
{
	if (!r)
		return;
	if (r->f && r->own)
		fclose(r->f);
	free(r->line);
	free(r);
}

void kft_text_row_free(struct kft_text_row *row)
{
	free(row->func);
	free(row->caller);
	free(row->args);
	row->func = row->caller = row->args = NULL;
}

void kft_caller_name(const char *called_at, char *out, size_t size)
{
	size_t n = strcspn(called_at, "+");

	snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1), called_at);
}
