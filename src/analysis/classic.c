// SPDX-License-Identifier: GPL-2.0-only
/*
 * kd 1.1's arithmetic, for comparison with old reports (kft kd
 * --classic): functions by their bare name, every call's time counted
 * (recursion included), a call's time added to the sub-time of the
 * function its caller names, if that one was met before. It needs
 * nothing but the rows in order, so a trace or a log is read as a stream.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/strmap.h"
#include "funcstats.h"
#include "functable.h"
#include "spooltree.h"

struct classic {
	struct kft_funcstats *fs;
	struct kft_funcstats_build b;	/* for its room only */
	struct kft_strmap byname;	/* bare name -> its first function */
};

/* fs holds a stat for each of t's functions. */
static int cover(struct classic *c, const struct kft_calltree *t)
{
	size_t had = c->fs->nfuncs;

	if (kft_funcstats_cover(&c->b, t->nfuncs))
		return -1;
	for (size_t f = had; f < t->nfuncs; f++) {
		uint32_t first;

		if (kft_strmap_get(&c->byname, t->funcs[f].base_name, &first))
			continue;
		if (kft_strmap_put(&c->byname, t->funcs[f].base_name, (uint32_t)f))
			return -1;
	}
	return 0;
}

/* One call of function func (by its bare name), made from caller. */
static int one_call(struct classic *c, const struct kft_calltree *t, uint32_t func,
		    int64_t dur_ns, const char *caller_name)
{
	struct kft_funcstats *fs = c->fs;
	uint32_t rep = func, caller;
	struct kft_func_stat *s;
	int64_t d = dur_ns < 0 ? -1000 : dur_ns / 1000 * 1000;	/* the log's usecs */

	kft_strmap_get(&c->byname, t->funcs[func].base_name, &rep);
	s = &fs->funcs[rep];
	if (!s->count || d < s->min_ns)
		s->min_ns = d;
	if (!s->count || d > s->max_ns)
		s->max_ns = d;
	s->count++;
	s->unfinished += dur_ns < 0;
	s->time_ns += d;
	/* only a caller already seen collects sub-time */
	if (kft_strmap_get(&c->byname, caller_name, &caller) && fs->funcs[caller].count) {
		if (d >= 0)
			fs->funcs[caller].sub_ns += d;
		if (kft_funcstats_add_child(&fs->funcs[caller], rep, 0))
			return -1;
	}
	return 0;
}

static void finish(struct kft_funcstats *fs)
{
	for (size_t f = 0; f < fs->nfuncs; f++) {
		struct kft_func_stat *s = &fs->funcs[f];

		s->local_ns = s->time_ns - s->sub_ns;
		for (size_t i = 0; i < s->nchildren; i++) {
			const struct kft_child_stat *ch = &s->children[i];

			if (s->max_sub == KFT_NONE ||
			    fs->funcs[ch->func].time_ns > fs->funcs[s->max_sub].time_ns) {
				s->max_sub = ch->func;
				s->max_sub_count = ch->count;
			}
		}
	}
}

int kft_funcstats_classic_from_rows(struct kft_funcstats *fs, struct kft_calltree *t,
				    const struct kft_text_source *src, struct kft_error *err)
{
	struct classic c = { .fs = fs };
	struct kft_functable names;
	const struct kft_text_row *r;
	char caller[1024];
	int got;

	memset(t, 0, sizeof(*t));
	kft_funcstats_build_start(&c.b, fs, false);
	fs->classic = true;
	kft_functable_init(&names, t, NULL);
	got = src->rewind(src->ctx, err);
	while (!got && (got = src->next(src->ctx, &r, err)) > 0) {
		uint32_t func;

		got = 0;
		if (r->delta_ns == -2)
			continue;	/* stack-watch rows are no calls */
		kft_caller_name(r->caller, caller, sizeof(caller));
		if (kft_functable_func(&names, r->func, r->func, NULL, &func) || cover(&c, t) ||
		    one_call(&c, t, func, r->delta_ns < 0 ? -1 : r->delta_ns, caller)) {
			got = kft_error_set(err, "out of memory");
			break;
		}
	}
	if (!got && kft_functable_finish(&names))
		got = kft_error_set(err, "out of memory");
	if (!got)
		finish(fs);
	kft_functable_done(&names);
	kft_strmap_free(&c.byname);
	kft_funcstats_build_keep(&c.b);
	if (got) {
		kft_funcstats_free(fs);
		kft_calltree_free(t);
	}
	return got;
}
