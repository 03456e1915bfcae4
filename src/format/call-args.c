// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../config/config.h"
#include "call-args.h"

_Static_assert(sizeof(struct kft_argrec) == 192, "the args file's records are 192 bytes");

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

/* A saved string as C writes it, quoted, escaped, "..." where cut. */
static void quote(const struct kft_argrec *r, int i, char *buf, size_t size)
{
	size_t n = 0, off = r->str_off[i];
	const char *s = off < KFT_ARGS_TEXT ? r->text + off : "";
	size_t max = KFT_ARGS_TEXT - (off < KFT_ARGS_TEXT ? off : KFT_ARGS_TEXT);

	if (size < 8) {
		buf[0] = '\0';
		return;
	}
	buf[n++] = '"';
	for (size_t k = 0; k < max && s[k] && n + 6 < size; k++) {
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
	if (r->str_state[i] == KFT_ARGSTR_CUT && n + 4 < size)
		strcat(buf, "...");
}

const char *kft_argrec_value(const struct kft_argrec *r, int i, char *buf, size_t size)
{
	unsigned int bits = r->bits[i] && r->bits[i] < 64 ? r->bits[i] : 64;
	uint64_t v = r->regs[i];

	/* a value narrower than its register: the register's low bits, as
	 * the ABI leaves the rest undefined */
	if (bits < 64 && r->fmt[i] != KFT_ARG_STR) {
		v &= (1ULL << bits) - 1;
		if (r->fmt[i] == KFT_ARG_INT && (v >> (bits - 1)) & 1)
			v |= ~0ULL << bits;
	}

	switch (r->fmt[i]) {
	case KFT_ARG_STR:
		if (r->str_state[i] == KFT_ARGSTR_NULL)
			snprintf(buf, size, "NULL");
		else if (r->str_state[i] == KFT_ARGSTR_FAULT)
			snprintf(buf, size, "0x%" PRIx64 " (unreadable)", v);
		else if (r->str_state[i] == KFT_ARGSTR_READ || r->str_state[i] == KFT_ARGSTR_CUT)
			quote(r, i, buf, size);
		else
			snprintf(buf, size, "0x%" PRIx64, v);
		break;
	case KFT_ARG_HEX:
		snprintf(buf, size, "0x%" PRIx64, v);
		break;
	case KFT_ARG_UINT:
		snprintf(buf, size, "%" PRIu64, v);
		break;
	default:
		snprintf(buf, size, "%" PRId64, (int64_t)v);
		break;
	}
	return buf;
}

const char *kft_args_text(const struct kft_call_args *a, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	if (!a->args)
		return buf;
	for (int i = 0; i < KFT_MAX_ARGS; i++) {
		char one[KFT_ARGS_TEXT * 4 + 32];
		int w;

		if (!a->args->fmt[i])
			continue;
		w = snprintf(buf + n, size - n, "%s%s", n ? ", " : "",
			     kft_argrec_value(a->args, i, one, sizeof(one)));
		if (w < 0 || (size_t)w >= size - n)
			break;
		n += (size_t)w;
	}
	return buf;
}

const char *kft_retval_text(const struct kft_call_args *a, char *buf, size_t size)
{
	buf[0] = '\0';
	if (a->ret && a->ret->fmt[0])
		kft_argrec_value(a->ret, 0, buf, size);
	return buf;
}
