// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/grow.h"
#include "../config/config.h"
#include "args-file.h"

#define ARGS_MARK_EVERY 64		/* records between marks */
#define ARGS_WINDOW (16 << 10)		/* bytes of the file read at a time */
_Static_assert(KFT_ARGREC_MAX <= ARGS_WINDOW, "a window holds the largest record");
_Static_assert(KFT_ARGSPEC_ITEMS <= KFT_ARGREC_MAX_VALS, "a record holds a spec's every value");

_Static_assert(sizeof(struct kft_argrec_head) == 32, "an args record's head is 32 bytes");
_Static_assert(sizeof(struct kft_argrec_head_v2) == 40, "version 2's head is 40 bytes");
_Static_assert(sizeof(struct kft_argval) == 16, "a saved value is 16 bytes");

static void read_head(const struct kft_args_hdr *hdr, const unsigned char *data,
		      struct kft_argrec_parts *h)
{
	if (hdr->version >= 3) {
		struct kft_argrec_head r;

		memcpy(&r, data, sizeof(r));
		*h = (struct kft_argrec_parts){ r.entry_ns, r.func,	 r.sp,	   hdr->tid,
				    hdr->session, sizeof(r), r.size, r.kind, r.nvals };
	} else {
		struct kft_argrec_head_v2 r;

		memcpy(&r, data, sizeof(r));
		*h = (struct kft_argrec_parts){ r.entry_ns, r.func,	 r.sp,	   r.tid,
				    r.session,	sizeof(r), r.size, r.kind, r.nvals };
	}
}

/* Whether value v may sit in a record of kind at place k (a version 3
 * record's return value comes first). */
static bool value_ok(const struct kft_argval *v, int kind, unsigned int k)
{
	bool retval = v->slot == KFT_ARGVAL_RETVAL;

	if (v->str_len > KFT_ARGS_STR_MAX || v->room % 8 || (v->room && v->str_len > v->room) ||
	    (v->str_state == KFT_ARGSTR_PENDING && !retval))
		return false;
	if (kind == KFT_ARGREC_RETVAL)
		return retval;
	if (retval)
		return kind == KFT_ARGREC_CALL && k == 0;
	return v->slot < KFT_ARGVAL_STACK0 + KFT_MAX_STACKARGS;
}

/* Whether the record at data holds what its head h says. */
static bool record_ok(const struct kft_args_hdr *hdr, const unsigned char *data,
		      const struct kft_argrec_parts *h)
{
	size_t p = h->head_size;

	if (hdr->version >= 3 ? h->kind != KFT_ARGREC_CALL
			      : h->kind != KFT_ARGREC_ARGS && h->kind != KFT_ARGREC_RETVAL)
		return false;
	for (unsigned int k = 0; k < h->nvals; k++) {
		struct kft_argval v;

		if (p + sizeof(v) > h->size)
			return false;
		memcpy(&v, data + p, sizeof(v));
		p += kft_argval_next(&v);
		if (p > h->size || !value_ok(&v, h->kind, k))
			return false;
	}
	return true;
}

int kft_argrec_parse(const struct kft_args_hdr *hdr, const unsigned char *data, size_t avail,
		     struct kft_argrec_parts *p)
{
	size_t head = hdr->version >= 3 ? sizeof(struct kft_argrec_head)
					: sizeof(struct kft_argrec_head_v2);

	if (avail < head)
		return 2;
	read_head(hdr, data, p);
	if (p->size > avail && p->size >= head)
		return 2;
	if (p->size < head || p->size % 8 || !record_ok(hdr, data, p))
		return 1;
	return 0;
}

/* The window holding the record at off (and KFT_ARGREC_MAX bytes after it,
 * or the file's end): 0 or -1. */
static int window_at(struct kft_args_file *f, uint64_t off)
{
	size_t want = ARGS_WINDOW;
	ssize_t n;
	int fd;

	if (off >= f->win_off && off - f->win_off + KFT_ARGREC_MAX <= f->win_len)
		return 0;
	if (off >= f->win_off && f->win_off + f->win_len == f->end && off < f->end)
		return 0;	/* the file's last window */
	if (!f->win && !(f->win = malloc(ARGS_WINDOW)))
		return -1;
	if (off + want > f->end)
		want = (size_t)(f->end - off);
	fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	n = pread(fd, f->win, want, (off_t)(KFT_ARGS_OFF + off));
	close(fd);
	if (n < 0 || (size_t)n != want)
		return -1;
	f->win_off = off;
	f->win_len = want;
	return 0;
}

int kft_args_file_open(struct kft_args_file *f, const char *path, const struct kft_args_hdr *h,
		       uint64_t file_size, bool *damaged)
{
	uint64_t last_ns = 0, size;
	int ret = 0;

	*damaged = false;
	memset(f, 0, sizeof(*f));
	f->session = h->session;
	f->tid = h->tid;
	if (!(f->path = strdup(path)))
		goto fail;
	/* (what the header counts past the file's end, as a crash while it
	 * grew may leave, is not read) */
	size = file_size > KFT_ARGS_OFF ? file_size - KFT_ARGS_OFF : 0;
	f->end = h->end < size ? h->end : size;
	for (uint64_t off = 0; off < f->end;) {
		struct kft_argrec_parts p;
		size_t avail;
		int r;

		if (window_at(f, off)) {
			if (!f->win)
				goto fail;	/* out of memory */
			*damaged = true;	/* unreadable from here */
			f->end = off;
			break;
		}
		avail = f->win_len - (off - f->win_off);
		r = kft_argrec_parse(h, f->win + (off - f->win_off), avail, &p);
		if (r == 2 && off + avail < f->end)
			r = 1;	/* longer than any record: not a cut */
		if (r) {
			*damaged = r == 1;	/* (2: cut short at the end, dropped) */
			f->end = off;
			break;
		}
		if (p.entry_ns < last_ns)
			ret = 1;
		last_ns = p.entry_ns;
		if (!(f->nrecs % ARGS_MARK_EVERY)) {
			if (kft_grow((void **)&f->marks, f->nmarks, &f->marks_cap,
				     sizeof(*f->marks), 64))
				goto fail;
			f->marks[f->nmarks++] = (struct kft_args_mark){ off, p.entry_ns };
		}
		f->nrecs++;
		off += p.size;
	}
	return ret;
fail:
	kft_args_file_close(f);
	return -1;
}

void kft_args_file_close(struct kft_args_file *f)
{
	free(f->path);
	free(f->marks);
	free(f->win);
	memset(f, 0, sizeof(*f));
}

/* Where to read on from for a call that entered at entry_ns: the cursor,
 * if it lies before it and no mark lies between, else the last mark
 * before it. */
static uint64_t start_for(const struct kft_args_file *f, uint64_t entry_ns)
{
	size_t lo = 0, hi = f->nmarks;

	while (lo < hi) {	/* the first mark at entry_ns or after */
		size_t mid = lo + (hi - lo) / 2;

		if (f->marks[mid].entry_ns < entry_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	if (f->pos >= f->marks[lo - 1].off && (lo == f->nmarks || f->pos < f->marks[lo].off) &&
	    f->win && f->pos >= f->win_off && f->pos - f->win_off + sizeof(struct kft_argrec_head) <=
						       f->win_len) {
		struct kft_argrec_head h;

		memcpy(&h, f->win + (f->pos - f->win_off), sizeof(h));
		if (h.entry_ns <= entry_ns)
			return f->pos;
	}
	return f->marks[lo - 1].off;
}

const unsigned char *kft_args_file_find(struct kft_args_file *f, uint64_t entry_ns,
					uint64_t func)
{
	for (uint64_t off = start_for(f, entry_ns); off < f->end;) {
		struct kft_argrec_head h;
		const unsigned char *rec;

		if (window_at(f, off))
			return NULL;
		rec = f->win + (off - f->win_off);
		memcpy(&h, rec, sizeof(h));
		if (h.entry_ns > entry_ns)
			break;
		f->pos = off;
		if (h.entry_ns == entry_ns && h.func == func)
			return rec;
		off += h.size;
	}
	return NULL;
}
