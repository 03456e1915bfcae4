// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../config/config.h"
#include "call-args.h"

_Static_assert(sizeof(struct kft_argrec_head) == 32, "an args record's head is 32 bytes");
_Static_assert(sizeof(struct kft_argrec_head_v2) == 40, "version 2's head is 40 bytes");
_Static_assert(sizeof(struct kft_argval) == 16, "a saved value is 16 bytes");

/* A record's head, either version's, as one. */
struct head {
	uint64_t entry_ns, func, sp;
	uint32_t tid, session;
	size_t head_size, size;
	uint8_t kind, nvals;
};

static void read_head(const struct kft_args_hdr *hdr, const unsigned char *data, struct head *h)
{
	if (hdr->version >= 3) {
		struct kft_argrec_head r;

		memcpy(&r, data, sizeof(r));
		*h = (struct head){ r.entry_ns, r.func,	 r.sp,	   hdr->tid,
				    hdr->session, sizeof(r), r.size, r.kind, r.nvals };
	} else {
		struct kft_argrec_head_v2 r;

		memcpy(&r, data, sizeof(r));
		*h = (struct head){ r.entry_ns, r.func,	 r.sp,	   r.tid,
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
	return v->slot < KFT_ARGVAL_STACK0 + KFT_MAX_STACKARGS &&
	       (v->slot < KFT_ARGVAL_STACK0 || v->fmt == KFT_ARG_AGGREGATE);
}

/* Whether the record at data holds what its head h says. */
static bool record_ok(const struct kft_args_hdr *hdr, const unsigned char *data,
		      const struct head *h)
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

/* Room in *v for one more: 0 or -1. */
static int more_room(struct kft_argrec **v, size_t n, size_t *cap)
{
	if (n == *cap) {
		size_t more = *cap ? 2 * *cap : 256;
		struct kft_argrec *bigger = realloc(*v, more * sizeof(*bigger));

		if (!bigger)
			return -1;
		*v = bigger;
		*cap = more;
	}
	return 0;
}

/* The record h at data as the views find it: the arguments and the
 * return value each on their own (a return value yet to come, or none
 * asked for, adds nothing). */
static int add(const struct head *h, const unsigned char *data, struct kft_argrec **v, size_t *n,
	       size_t *cap)
{
	struct kft_argrec r = { h->entry_ns, h->func, h->sp, h->tid, h->session,
				h->kind, h->nvals, data + h->head_size, NULL };

	if (h->kind == KFT_ARGREC_CALL && h->nvals) {
		struct kft_argval ret;

		memcpy(&ret, r.vals, sizeof(ret));
		if (ret.slot == KFT_ARGVAL_RETVAL) {
			if (ret.str_state != KFT_ARGSTR_PENDING) {
				if (more_room(v, *n, cap))
					return -1;
				(*v)[(*n)++] = (struct kft_argrec){ h->entry_ns, h->func, h->sp,
								    h->tid, h->session,
								    KFT_ARGREC_RETVAL, 1,
								    r.vals, NULL };
			}
			r.vals += kft_argval_next(&ret);
			r.nvals--;
		}
		r.kind = KFT_ARGREC_ARGS;
	}
	if (!r.nvals && h->kind == KFT_ARGREC_CALL)
		return 0;	/* a return value only */
	if (more_room(v, *n, cap))
		return -1;
	(*v)[(*n)++] = r;
	return 0;
}

int kft_args_index(const struct kft_args_hdr *hdr, const unsigned char *data, size_t end,
		   struct kft_argrec **v, size_t *n, size_t *cap)
{
	size_t head = hdr->version >= 3 ? sizeof(struct kft_argrec_head)
					: sizeof(struct kft_argrec_head_v2);

	for (size_t off = 0; off + head <= end;) {
		struct head h;

		read_head(hdr, data + off, &h);
		if (h.size > end - off && h.size >= head)
			return 0;	/* cut short at the end: dropped */
		if (h.size < head || h.size % 8 || !record_ok(hdr, data + off, &h))
			return 1;
		if (add(&h, data + off, v, n, cap))
			return -1;
		off += h.size;
	}
	return 0;
}

static int cmp_key(uint32_t session, uint32_t tid, uint64_t entry_ns, uint64_t func,
		   const struct kft_argrec *r)
{
	if (session != r->session)
		return session < r->session ? -1 : 1;
	if (tid != r->tid)
		return tid < r->tid ? -1 : 1;
	if (entry_ns != r->entry_ns)
		return entry_ns < r->entry_ns ? -1 : 1;
	if (func != r->func)
		return func < r->func ? -1 : 1;
	return 0;
}

static int cmp_argrec(const void *a, const void *b)
{
	const struct kft_argrec *x = a, *y = b;
	int c = cmp_key(x->session, x->tid, x->entry_ns, x->func, y);

	return c ? c : (x->kind > y->kind) - (x->kind < y->kind);
}

void kft_args_sort(struct kft_argrec *v, size_t n)
{
	if (n)
		qsort(v, n, sizeof(*v), cmp_argrec);
}

bool kft_call_args(const struct kft_trace *tr, const struct kft_call *c,
		   struct kft_call_args *out)
{
	size_t lo = 0, hi = tr->nargs;

	out->args = out->ret = NULL;
	while (lo < hi) {	/* the first record of the call, if any */
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_key(c->session, c->tid, c->entry_ns, c->func, &tr->args[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < tr->nargs && !cmp_key(c->session, c->tid, c->entry_ns, c->func,
					  &tr->args[lo]); lo++) {
		if (tr->args[lo].kind == KFT_ARGREC_ARGS && !out->args)
			out->args = &tr->args[lo];
		else if (tr->args[lo].kind == KFT_ARGREC_RETVAL && !out->ret)
			out->ret = &tr->args[lo];
	}
	return out->args || out->ret;
}

bool kft_argrec_get(const struct kft_argrec *r, int slot, struct kft_argval *val,
		    const char **text)
{
	size_t p = 0;

	for (unsigned int k = 0; k < r->nvals; k++) {
		memcpy(val, r->vals + p, sizeof(*val));
		if (val->slot == slot) {
			if (text)
				*text = (const char *)r->vals + p + sizeof(*val);
			return true;
		}
		p += kft_argval_next(val);
	}
	return false;
}

/* A saved string as C writes it, quoted, escaped, "..." where cut. */
static void quote(const struct kft_argval *v, const char *s, char *buf, size_t size)
{
	size_t n = 0;

	if (size < 8) {
		buf[0] = '\0';
		return;
	}
	buf[n++] = '"';
	for (size_t k = 0; k < v->str_len && s[k] && n + 8 < size; k++) {
		unsigned char ch = (unsigned char)s[k];

		if (ch == '"' || ch == '\\') {
			buf[n++] = '\\';
			buf[n++] = (char)ch;
		} else if (ch == '\n' || ch == '\t') {
			buf[n++] = '\\';
			buf[n++] = ch == '\n' ? 'n' : 't';
		} else if (ch < 0x20 || ch >= 0x7f) {
			n += (size_t)snprintf(buf + n, size - n, "\\x%02x", ch);
		} else {
			buf[n++] = (char)ch;
		}
	}
	buf[n++] = '"';
	buf[n] = '\0';
	if (v->str_state == KFT_ARGSTR_CUT && n + 4 < size)
		strcat(buf, "...");
}

const char *kft_argrec_value(const struct kft_argrec *r, int slot, char *buf, size_t size)
{
	struct kft_argval v;
	const char *text;
	unsigned int bits;
	uint64_t x;

	buf[0] = '\0';
	if (!kft_argrec_get(r, slot, &v, &text))
		return buf;
	bits = v.bits && v.bits < 64 ? v.bits : 64;
	x = v.value;
	/* a value narrower than its register: the register's low bits, as
	 * the ABI leaves the rest undefined */
	if (bits < 64 && v.fmt != KFT_ARG_STR && v.fmt != KFT_ARG_FLOAT) {
		x &= (1ULL << bits) - 1;
		if (v.fmt == KFT_ARG_INT && (x >> (bits - 1)) & 1)
			x |= ~0ULL << bits;
	}
	switch (v.fmt) {
	case KFT_ARG_BOOL:
		snprintf(buf, size, "%s", x ? "true" : "false");
		break;
	case KFT_ARG_AGGREGATE:
		snprintf(buf, size, "{...}");
		break;
	case KFT_ARG_ENUM: {
		/* the text after it is its type's name */
		const char *name = kft_enum_defs_name(r->enums, text, v.str_len, x, bits);

		if (name)
			snprintf(buf, size, "%s", name);
		else
			snprintf(buf, size, "%" PRId64, (int64_t)x);
		break;
	}
	case KFT_ARG_FLOAT:
		if (bits == 32) {
			uint32_t u = (uint32_t)v.value;
			float f;

			memcpy(&f, &u, sizeof(f));
			snprintf(buf, size, "%g", (double)f);
		} else {
			double d;

			memcpy(&d, &v.value, sizeof(d));
			snprintf(buf, size, "%g", d);
		}
		break;
	case KFT_ARG_STR:
		if (v.str_state == KFT_ARGSTR_NULL)
			snprintf(buf, size, "NULL");
		else if (v.str_state == KFT_ARGSTR_FAULT)
			snprintf(buf, size, "0x%" PRIx64 " (unreadable)", x);
		else if (v.str_state == KFT_ARGSTR_READ || v.str_state == KFT_ARGSTR_CUT)
			quote(&v, text, buf, size);
		else
			snprintf(buf, size, "0x%" PRIx64, x);
		break;
	case KFT_ARG_HEX:
		snprintf(buf, size, "0x%" PRIx64, x);
		break;
	case KFT_ARG_UINT:
		snprintf(buf, size, "%" PRIu64, x);
		break;
	default:
		snprintf(buf, size, "%" PRId64, (int64_t)x);
		break;
	}
	return buf;
}

/* The slots r holds values of, in its order (the spec's): how many (at
 * most max). */
static int argrec_slots(const struct kft_argrec *r, uint8_t *slots, int max)
{
	size_t p = 0;
	int n = 0;

	for (unsigned int k = 0; k < r->nvals && n < max; k++) {
		struct kft_argval v;

		memcpy(&v, r->vals + p, sizeof(v));
		p += kft_argval_next(&v);
		slots[n++] = v.slot;
	}
	return n;
}

int kft_call_args_named(const struct kft_call_args *a, bool with_ret, struct kft_named_value *out,
			int max)
{
	uint8_t slots[KFT_ARGSPEC_ITEMS];
	int nslots = a->args ? argrec_slots(a->args, slots, KFT_ARGSPEC_ITEMS) : 0, n = 0;

	for (int i = 0; i < nslots && n < max; i++)
		if (*kft_argrec_value(a->args, slots[i], out[n].text, sizeof(out[n].text))) {
			kft_argslot_name(slots[i], out[n].name, sizeof(out[n].name));
			n++;
		}
	if (with_ret && a->ret && n < max &&
	    *kft_argrec_value(a->ret, KFT_ARGVAL_RETVAL, out[n].text, sizeof(out[n].text))) {
		kft_argslot_name(KFT_ARGVAL_RETVAL, out[n].name, sizeof(out[n].name));
		n++;
	}
	return n;
}

const char *kft_args_text(const struct kft_call_args *a, char *buf, size_t size)
{
	struct kft_named_value v[KFT_ARGSPEC_ITEMS];
	int nv = kft_call_args_named(a, false, v, KFT_ARGSPEC_ITEMS);
	size_t n = 0;

	buf[0] = '\0';
	/* in the record's order: the spec's, a function's parameters' */
	for (int i = 0; i < nv; i++) {
		int w = snprintf(buf + n, size - n, "%s%s", n ? ", " : "", v[i].text);

		if (w < 0 || (size_t)w >= size - n)
			break;
		n += (size_t)w;
	}
	return buf;
}

const char *kft_retval_text(const struct kft_call_args *a, char *buf, size_t size)
{
	buf[0] = '\0';
	if (a->ret)
		kft_argrec_value(a->ret, KFT_ARGVAL_RETVAL, buf, size);
	return buf;
}
