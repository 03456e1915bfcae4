// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>

#include "inherited.h"
#include "thread-records.h"

/* Only a process's first thread goes on in a fork child or a new image. */
static bool image_main(const struct kft_thread_file *th)
{
	return th->hdr.tid == th->hdr.pid && !th->hdr.coroutine;
}

static int oom(struct kft_error *err)
{
	return kft_error_set(err, "out of memory");
}

/* A fork child's first rows: set apart from its records. */
static int take_rows(struct kft_thread_file *th, struct kft_error *err)
{
	uint64_t n = 0;
	struct kft_rec_data r;

	if (!th->hdr.parent_session || !image_main(th))
		return 0;
	while (n < th->nrecs) {
		kft_thread_rec(th, n, &r);
		if (r.dur != KFT_DUR_INHERITED)
			break;
		n++;
	}
	if (!n)
		return 0;
	if (!(th->inherited = malloc(n * sizeof(*th->inherited))))
		return oom(err);
	for (uint64_t i = 0; i < n; i++)
		kft_thread_rec(th, i, &th->inherited[i]);
	th->ninherited = n;
	th->inherited_map = th->hdr.session;	/* named as the child's own */
	th->first += n;
	th->nrecs -= n;
	return 0;
}

/* The inherited row of old at depth d, if any. */
static const struct kft_rec_data *row_at(const struct kft_thread_file *old, uint64_t d)
{
	for (uint64_t i = 0; i < old->ninherited; i++)
		if (old->inherited[i].depth == d)
			return &old->inherited[i];
	return NULL;
}

/*
 * th is the image that replaced old by exec: the calls old's thread had
 * open at the end, its own (logged) and those it had inherited, are th's
 * inherited calls, outermost first.
 */
static int take_replaced(struct kft_thread_file *th, const struct kft_thread_file *old,
			 struct kft_error *err)
{
	uint64_t n = 0;

	for (uint64_t f = 0; f < old->nframes; f++)
		n += (old->frames[f].flags & KFT_FRAME_LOGGED) || row_at(old, f);
	if (!n)
		return 0;
	if (!(th->inherited = malloc(n * sizeof(*th->inherited))))
		return oom(err);
	for (uint64_t f = 0; f < old->nframes; f++) {
		const struct kft_frame *fr = &old->frames[f];
		const struct kft_rec_data *row = row_at(old, f);
		struct kft_rec_data *r = &th->inherited[th->ninherited];

		if (fr->flags & KFT_FRAME_LOGGED) {
			*r = (struct kft_rec_data){ .entry_ns = fr->entry_ns, .func = fr->func,
						    .call_site = fr->call_site,
						    .dur = KFT_DUR_INHERITED,
						    .flags = kft_frame_rec_flags(fr) };
		} else if (row) {
			*r = *row;
		} else {
			continue;
		}
		/* an image's depths start again from 0: these are
		 * outermost, one a level */
		r->depth = (uint32_t)th->ninherited++;
	}
	th->inherited_exec = true;	/* shown at its first call (the walk) */
	th->inherited_map = old->hdr.session;
	return 0;
}

/* Image mains by pid, then session: an exec'd image follows the image
 * it replaced. */
static int by_pid_session(const void *a, const void *b, void *ctx)
{
	const struct kft_thread_file *threads = ctx;
	const struct kft_thread_hdr *x = &threads[*(const size_t *)a].hdr;
	const struct kft_thread_hdr *y = &threads[*(const size_t *)b].hdr;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->session < y->session ? -1 : x->session > y->session;
}

int kft_inherited_find(struct kft_trace *tr, struct kft_error *err)
{
	size_t *mains = malloc((tr->nthreads ? tr->nthreads : 1) * sizeof(*mains)), n = 0;
	int ret = 0;

	if (!mains)
		return oom(err);
	for (size_t i = 0; i < tr->nthreads && !ret; i++) {
		ret = take_rows(&tr->threads[i], err);
		/* (as views ask anyway: the first record of each) */
		if (image_main(&tr->threads[i]) && !kft_thread_is_kernel(&tr->threads[i]))
			mains[n++] = i;
	}
	qsort_r(mains, n, sizeof(*mains), by_pid_session, tr->threads);
	/* a new image of the same process, not a fork child: exec made it */
	for (size_t k = 1; k < n && !ret; k++) {
		struct kft_thread_file *th = &tr->threads[mains[k]];
		const struct kft_thread_file *old = &tr->threads[mains[k - 1]];

		if (old->hdr.pid == th->hdr.pid && !th->hdr.parent_session && !th->ninherited)
			ret = take_replaced(th, old, err);
	}
	free(mains);
	return ret;
}
