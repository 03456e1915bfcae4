/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ftrace's selections and the args statement given as options of kft
 * record (-F, -N, -G, -A, -R, -D, --cpus), into the run's config as the
 * statements they stand for.
 */
#ifndef KFT_RECORD_SELECTIONS_H
#define KFT_RECORD_SELECTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/error.h"
#include "../config/config.h"

#define KFT_SELECTIONS_MAX 64	/* of each option */

struct kft_selections {
	const char *filter[KFT_SELECTIONS_MAX];		/* -F */
	const char *notrace[KFT_SELECTIONS_MAX];	/* -N */
	const char *graph[KFT_SELECTIONS_MAX];		/* -G */
	size_t nfilter, nnotrace, ngraph;
	const char *args[KFT_SELECTIONS_MAX];		/* -A FUNC[@SPEC], -R FUNC[@retval/FMT] */
	bool args_ret[KFT_SELECTIONS_MAX];		/* from -R: the return value */
	size_t nargs;
	const char *depth;				/* -D */
	const char *cpus;				/* --cpus */
};

/*
 * sel into cfg: patterns add to the config's lists, the depth and CPUs
 * replace its own. A bad word is said by the option it came from
 * ("record: -D: '0': ..."); CPUs none of which this machine has are
 * refused. 0, or -1 with err set.
 */
int kft_selections_apply(struct kft_config *cfg, const struct kft_selections *sel,
			 struct kft_error *err);

#endif
