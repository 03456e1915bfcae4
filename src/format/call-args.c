// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../config/config.h"
#include "args-file.h"
#include "call-args.h"

/* The record h at data as the views find it: the arguments and the
 * return value each on their own (a return value yet to come, or none
 * asked for, adds nothing). */
static int add(const struct kft_argrec_parts *h, const unsigned char *data,
	       struct kft_argrec **v, size_t *n, size_t *cap)
{
	struct kft_argrec r = { h->entry_ns, h->func, h->sp, h->tid, h->session,
				h->kind, h->nvals, data + h->head_size, NULL };

	if (h->kind == KFT_ARGREC_CALL && h->nvals) {
		struct kft_argval ret;

		memcpy(&ret, r.vals, sizeof(ret));
		if (ret.slot == KFT_ARGVAL_RETVAL) {
			if (ret.str_state != KFT_ARGSTR_PENDING) {
				if (kft_grow((void **)v, *n, cap, sizeof(**v), 256))
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
	if (kft_grow((void **)v, *n, cap, sizeof(**v), 256))
		return -1;
	(*v)[(*n)++] = r;
	return 0;
}

int kft_args_index(const struct kft_args_hdr *hdr, const unsigned char *data, size_t end,
		   struct kft_argrec **v, size_t *n, size_t *cap)
{
	for (size_t off = 0; off < end;) {
		struct kft_argrec_parts h;
		int r = kft_argrec_parse(hdr, data + off, end - off, &h);

		if (r)
			return r == 1;	/* (2: cut short at the end, dropped) */
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

/* c's record in f, a version 3 file, into out: whether there is one. */
static bool from_file(const struct kft_trace *tr, struct kft_args_file *f, const struct kft_call *c,
		      struct kft_call_args *out)
{
	static const struct kft_args_hdr v3 = { .version = 3 };
	const unsigned char *rec = kft_args_file_find(f, c->entry_ns, c->func);
	struct kft_argrec_parts h;
	struct kft_argrec e[2];
	size_t n = 0, cap = 2;
	struct kft_argrec *v = e;

	/* (checked as the file was opened) */
	if (!rec || kft_argrec_parse(&v3, rec, f->win_len - (size_t)(rec - f->win), &h) ||
	    add(&h, rec, &v, &n, &cap))
		return false;
	for (size_t k = 0; k < n; k++) {
		e[k].tid = f->tid;
		e[k].session = f->session;
		e[k].enums = tr->enums;
		out->own[k] = e[k];
		if (e[k].kind == KFT_ARGREC_ARGS)
			out->args = &out->own[k];
		else
			out->ret = &out->own[k];
	}
	return true;
}

static bool call_args_v3(const struct kft_trace *tr, const struct kft_call *c,
			 struct kft_call_args *out)
{
	/* a kernel call joined to its thread's program calls carries the
	 * program's image; its file is its own image's, as its map is */
	uint32_t session = c->flags & KFT_REC_KERNEL ? c->map_session : c->session;
	size_t lo = 0, hi = tr->nargs_files;

	while (lo < hi) {	/* the thread's first file (reader.c sorts them) */
		size_t mid = lo + (hi - lo) / 2;
		const struct kft_args_file *f = &tr->args_files[mid];

		if (f->session < session || (f->session == session && f->tid < c->tid))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < tr->nargs_files && tr->args_files[i].session == session &&
			    tr->args_files[i].tid == c->tid; i++)
		if (from_file(tr, &tr->args_files[i], c, out))
			return true;
	return false;
}

bool kft_call_args(const struct kft_trace *tr, const struct kft_call *c,
		   struct kft_call_args *out)
{
	size_t lo = 0, hi = tr->nargs_index;

	out->args = out->ret = NULL;
	if (call_args_v3(tr, c, out))
		return out->args || out->ret;
	while (lo < hi) {	/* the first record of the call, if any */
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_key(c->session, c->tid, c->entry_ns, c->func, &tr->args_index[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < tr->nargs_index && !cmp_key(c->session, c->tid, c->entry_ns, c->func,
						&tr->args_index[lo]); lo++) {
		if (tr->args_index[lo].kind == KFT_ARGREC_ARGS && !out->args)
			out->args = &tr->args_index[lo];
		else if (tr->args_index[lo].kind == KFT_ARGREC_RETVAL && !out->ret)
			out->ret = &tr->args_index[lo];
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
