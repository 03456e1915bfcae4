// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text-log.h"

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

int kft_text_log_parse_row(struct kft_text_row *row, char *line, const char *origin,
			   unsigned int lineno, struct kft_error *err)
{
	char *w[MAX_WORDS], *save = NULL, *tok;
	size_t n = 0, i = 0;
	char *args_start = NULL;

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
	if (!parse_int(w[i], &row->entry_us) || row->entry_us < 0 || row->entry_us > MAX_TIME)
		return kft_error_set(err, "%s:%u: '%s': Entry is not a time in usec", origin,
				     lineno, w[i]);
	i++;
	if (!strcmp(w[i], "no") && !strcmp(w[i + 1], "exit")) {
		row->delta_us = -1;	/* KFI's words for an exit not seen */
		i += 2;
	} else {
		if (!parse_int(w[i], &row->delta_us) || row->delta_us < -2 ||
		    row->delta_us > MAX_TIME)
			return kft_error_set(err, "%s:%u: '%s': Delta is not a duration in usec",
					     origin, lineno, w[i]);
		if (row->delta_us == 4294967295LL)
			row->delta_us = -1;	/* the printk dump's unset delta */
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
	row->func = strdup(w[i++]);
	row->caller = strdup(w[i++]);
	if (i < n) {
		/* keep the saved arguments as printed, one space apart */
		size_t len = 0;

		for (size_t j = i; j < n; j++)
			len += strlen(w[j]) + 1;
		args_start = malloc(len);
		if (args_start) {
			args_start[0] = '\0';
			for (size_t j = i; j < n; j++) {
				strcat(args_start, w[j]);
				if (j + 1 < n)
					strcat(args_start, " ");
			}
		}
		row->args = args_start;
	}
	if (!row->func || !row->caller || (i < n && !row->args)) {
		free(row->func);
		free(row->caller);
		free(row->args);
		return kft_error_set(err, "%s: out of memory", origin);
	}
	return 0;
}

/* A row of `kft log --ns`, in the usec every other log has. */
static void to_usec(struct kft_text_row *row)
{
	row->entry_us /= 1000;
	if (row->delta_us >= 0)
		row->delta_us /= 1000;
}

int kft_text_log_load(struct kft_text_log *log, const char *path, struct kft_error *err)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	const char *origin = strcmp(path, "-") ? path : "<stdin>";
	char *line = NULL;
	size_t cap = 0, rcap = 0;
	unsigned int lineno = 0;
	bool data = false, ns = false, titled_ns = false;
	int ret = 0;

	memset(log, 0, sizeof(*log));
	if (!f)
		return kft_error_set(err, "%s: %s", path, strerror(errno));
	while (getline(&line, &cap, f) > 0) {
		lineno++;
		if (!data) {
			/* post-processors key on the first line starting with dashes;
			 * `kft log --ns` titles its columns "Entry (ns)" */
			data = !strncmp(line, "--------", 8);
			ns = data && titled_ns;
			titled_ns = strstr(line, "Entry (ns)") != NULL;
			continue;
		}
		if (strspn(line, " \t\r\n") == strlen(line))
			continue;
		if (log->nrows == rcap) {
			struct kft_text_row *bigger;

			rcap = rcap ? 2 * rcap : 1024;
			bigger = realloc(log->rows, rcap * sizeof(*bigger));
			if (!bigger) {
				ret = kft_error_set(err, "%s: out of memory", origin);
				break;
			}
			log->rows = bigger;
		}
		if (kft_text_log_parse_row(&log->rows[log->nrows], line, origin, lineno, err)) {
			ret = -1;
			break;
		}
		if (ns)
			to_usec(&log->rows[log->nrows]);
		log->nrows++;
	}
	if (!ret && ferror(f))
		ret = kft_error_set(err, "%s: %s", origin, strerror(errno));
	if (!ret && !data)
		ret = kft_error_set(err, "%s: not a KFT log (no line starting with '--------' "
				     "before the data)", origin);
	free(line);
	if (f != stdin)
		fclose(f);
	if (ret)
		kft_text_log_free(log);
	return ret;
}

void kft_text_log_free(struct kft_text_log *log)
{
	for (size_t i = 0; i < log->nrows; i++) {
		free(log->rows[i].func);
		free(log->rows[i].caller);
		free(log->rows[i].args);
	}
	free(log->rows);
	memset(log, 0, sizeof(*log));
}
