// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "selections.h"

#define ORIGIN "kft record options"

/* A parse error of the options' config text (msg, ORIGIN ":LINE: ...")
 * said by the option it came from: "record: -D: '0': ...". */
static void option_said(struct kft_error *err, const char *const *line_opt, int nlines,
			const struct kft_selections *sel)
{
	static const char prefix[] = ORIGIN ":";
	char msg[sizeof(err->msg)];
	const char *opt, *rest;
	char *end;
	long line;

	if (strncmp(err->msg, prefix, sizeof(prefix) - 1))
		return;
	line = strtol(err->msg + sizeof(prefix) - 1, &end, 10);
	if (*end != ':' || line < 0 || line >= nlines || !(opt = line_opt[line]))
		return;
	rest = end + 1 + strspn(end + 1, " ");
	/* -A and -R share a line: the word said is one of theirs */
	for (size_t i = 0; !strcmp(opt, "-A") && i < sel->nargs; i++) {
		char quoted[300];

		snprintf(quoted, sizeof(quoted), "'%s", sel->args[i]);
		if (sel->args_ret[i] && strstr(rest, quoted))
			opt = "-R";
	}
	snprintf(msg, sizeof(msg), "%s", rest);
	kft_error_set(err, "record: %s: %s", opt, msg);
}

/* The selections as config text, and the option each line stands for. */
static char *as_text(const struct kft_selections *sel, const char **line_opt, size_t *len)
{
	const char *const *lists[3] = { sel->filter, sel->notrace, sel->graph };
	const size_t counts[3] = { sel->nfilter, sel->nnotrace, sel->ngraph };
	static const char *const words[3] = { "funclist", "notrace", "graph" };
	static const char *const names[3] = { "-F", "-N", "-G" };
	size_t room = 64;
	int line = 2;
	char *text, *p;

	for (int l = 0; l < 3; l++)
		for (size_t i = 0; i < counts[l]; i++)
			room += strlen(lists[l][i]) + 32;
	for (size_t i = 0; i < sel->nargs; i++)
		room += strlen(sel->args[i]) + 32;
	room += (sel->depth ? strlen(sel->depth) : 0) + (sel->cpus ? strlen(sel->cpus) + 32 : 0);
	text = p = malloc(room);
	if (!text)
		return NULL;
	p += sprintf(p, "begin\n");
	for (int l = 0; l < 3; l++) {
		if (!counts[l])
			continue;
		line_opt[line++] = names[l];
		p += sprintf(p, "filter %s", words[l]);
		for (size_t i = 0; i < counts[l]; i++)
			p += sprintf(p, " %s", lists[l][i]);
		p += sprintf(p, " fend\n");
	}
	if (sel->nargs) {
		line_opt[line++] = "-A";
		p += sprintf(p, "args");
		for (size_t i = 0; i < sel->nargs; i++)
			p += sprintf(p, " %s%s", sel->args[i],
				     sel->args_ret[i] && !strchr(sel->args[i], '@') ? "@retval" : "");
		p += sprintf(p, " fend\n");
	}
	if (sel->depth) {
		line_opt[line++] = "-D";
		p += sprintf(p, "filter depth %s\n", sel->depth);
	}
	if (sel->cpus) {
		line_opt[line++] = "--cpus";
		p += sprintf(p, "filter cpus %s\n", sel->cpus);
	}
	p += sprintf(p, "end\n");
	*len = (size_t)(p - text);
	return text;
}

/* A "filter cpus" naming none of this machine's CPUs would log nothing. */
static int check_cpus(const struct kft_config *cfg, struct kft_error *err)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	char list[KFT_CPUS_STR_MAX];

	if (!cfg->cpus_set || n <= 0)
		return 0;
	for (long c = 0; c < n && c < KFT_MAX_CPUS; c++)
		if (kft_config_cpu_in(cfg, (unsigned int)c))
			return 0;
	return kft_error_set(err, "record: filter cpus %s: no such CPU here (this machine's are 0-%ld)",
			     kft_config_cpus_str(cfg, list, sizeof(list)), n - 1);
}

int kft_selections_apply(struct kft_config *cfg, const struct kft_selections *sel,
			 struct kft_error *err)
{
	const char *line_opt[8] = { NULL };	/* the option each line stands for */
	struct kft_config opt;
	size_t len;
	char *text;
	int ret;

	if (!sel->nfilter && !sel->nnotrace && !sel->ngraph && !sel->depth && !sel->cpus &&
	    !sel->nargs)
		return check_cpus(cfg, err);
	if (!(text = as_text(sel, line_opt, &len)))
		return kft_error_set(err, "out of memory");
	kft_config_init(&opt);
	ret = kft_config_parse(&opt, text, len, ORIGIN, err);
	free(text);
	if (ret) {
		option_said(err, line_opt, 8, sel);
		return -1;
	}
	ret = kft_config_merge(cfg, &opt);
	kft_config_release(&opt);
	if (ret)
		return kft_error_set(err, "out of memory");
	return check_cpus(cfg, err);
}
