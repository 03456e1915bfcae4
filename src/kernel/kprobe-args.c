// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kprobe-args.h"

/* how many calls of one function may wait for their return at once (a
 * kretprobe's instances: past them a return value is missed) */
#define KARGS_MAXACTIVE 256

struct kft_kargs_event {
	int id;
	bool ret;				/* kft/ret<i>, else kft/args<i> */
	const struct kft_argspec *spec;
	struct tep_format_field *func, *sp;
	struct tep_format_field *val[KFT_ARGSPEC_ITEMS], *str[KFT_ARGSPEC_ITEMS];
};

/* The head of one event's values in kft_kargs.buf. */
struct kept {
	uint64_t sp;
	uint32_t len;
	uint8_t n;
	uint8_t pad[3];
};

int kft_kargs_check(const struct kft_config *cfg, const char *origin, struct kft_error *err)
{
	for (size_t i = 0; i < cfg->args.n; i++) {
		const struct kft_func_ref *r = &cfg->args.refs[i];
		const struct kft_argspec *spec = &cfg->argspecs[i];

		if (kft_is_glob(r->name))
			return kft_error_set(err, "%s:%u: args %s: name each kernel function (a "
					     "kprobe event is made for each), not a glob", origin,
					     r->line, r->name);
		for (unsigned int k = 0; k < spec->n; k++) {
			const struct kft_argitem *it = &spec->item[k];
			char slot[16];

			if (it->slot >= KFT_ARGSLOT_FP0 && it->slot < KFT_ARGSLOT_STACK0)
				return kft_error_set(err, "%s:%u: args %s@%s: the kernel passes no "
						     "floating-point arguments", origin, r->line,
						     r->name, kft_argslot_name(it->slot, slot,
									       sizeof(slot)));
			if (it->fmt == KFT_ARG_FLOAT || it->fmt == KFT_ARG_ENUM ||
			    it->fmt == KFT_ARG_AGGREGATE)
				return kft_error_set(err, "%s:%u: args %s@%s/%c: kernel values are "
						     "shown as integers, booleans or strings "
						     "(/d /u /x /b /s): kft reads no kernel types",
						     origin, r->line, r->name,
						     kft_argslot_name(it->slot, slot, sizeof(slot)),
						     it->fmt);
		}
	}
	return 0;
}

/* How a kprobe fetches slot: "$arg1", "$stack1" or "$retval". */
static const char *fetch_of(int slot, char *buf, size_t size)
{
	if (slot == KFT_ARGSLOT_RETVAL)
		snprintf(buf, size, "$retval");
	else if (slot >= KFT_ARGSLOT_STACK0)
		snprintf(buf, size, "$stack%d", slot - KFT_ARGSLOT_STACK0 + 1);
	else
		snprintf(buf, size, "$arg%d", slot + 1);
	return buf;
}

/* The probe definition of args<i> (ret false) or ret<i>: empty when the
 * spec asks for nothing it would fetch. */
static void definition(const struct kft_config *cfg, size_t i, bool ret, char *text, size_t size)
{
	const struct kft_argspec *spec = &cfg->argspecs[i];
	size_t n = 0, values = 0;

	if (ret)
		n = (size_t)snprintf(text, size, "r%d:kft/ret%zu %s", KARGS_MAXACTIVE, i,
				     cfg->args.refs[i].name);
	else
		n = (size_t)snprintf(text, size, "p:kft/args%zu %s sp=%%sp:x64", i,
				     cfg->args.refs[i].name);
	for (unsigned int k = 0; k < spec->n && n < size; k++) {
		const struct kft_argitem *it = &spec->item[k];
		char at[16];

		if ((it->slot == KFT_ARGSLOT_RETVAL) != ret)
			continue;
		fetch_of(it->slot, at, sizeof(at));
		n += (size_t)snprintf(text + n, size - n, " v%u=%s:x64", k, at);
		if (it->fmt == KFT_ARG_STR && n < size)
			n += (size_t)snprintf(text + n, size - n, " s%u=+0(%s):string", k, at);
		values++;
	}
	if (!values)
		text[0] = '\0';
}

static int make_event(struct kft_kernel *k, struct kft_journal *j, const char *text,
		      const char *name, struct kft_error *err)
{
	char undo[64], enable[128], why[sizeof(err->msg)];

	snprintf(undo, sizeof(undo), "-:kft/%s", name);
	if (kft_journal_append(j, kft_kernel_path(k, "kprobe_events"), text, undo, err)) {
		snprintf(why, sizeof(why), "%s", err->msg);	/* (err is written anew) */
		return kft_error_set(err, "%s (the kernel may not probe that function: see %s)",
				     why, kft_kernel_path(k, "error_log"));
	}
	snprintf(enable, sizeof(enable), "events/kft/%s/enable", name);
	return kft_journal_set(j, kft_kernel_path(k, enable), "1", err);
}

/* The probes' own handlers, traced, would show as calls inside the
 * functions probed: function_graph leaves them and their callees out. */
static int hide_handlers(struct kft_kernel *k, struct kft_journal *j, struct kft_error *err)
{
	static const char *const handlers[] = { "kprobe_ftrace_handler",
						"kretprobe_rethook_handler",
						"kretprobe_trampoline_handler" };
	char list[256] = "";
	size_t n = 0;
	uint32_t v;

	for (size_t i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
		if (kft_strmap_get(&k->traceable, handlers[i], &v))
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s\n", handlers[i]);
	if (!k->graph || !n)
		return 0;
	return kft_journal_set_list(j, kft_kernel_path(k, "set_graph_notrace"), list, err);
}

int kft_kargs_arm(struct kft_kernel *k, struct kft_journal *j, const struct kft_config *cfg,
		  struct kft_error *err)
{
	char text[1024], name[32];

	if (cfg->args.n && hide_handlers(k, j, err))
		return -1;
	for (size_t i = 0; i < cfg->args.n; i++)
		for (int ret = 0; ret < 2; ret++) {
			definition(cfg, i, ret, text, sizeof(text));
			snprintf(name, sizeof(name), "%s%zu", ret ? "ret" : "args", i);
			if (text[0] && make_event(k, j, text, name, err))
				return -1;
		}
	return 0;
}

static void find_event(struct kft_kargs *a, struct tep_handle *tep, size_t i, bool ret)
{
	const struct kft_argspec *spec = &a->cfg->argspecs[i];
	struct kft_kargs_event *e;
	struct tep_event *ev;
	char name[32];

	snprintf(name, sizeof(name), "%s%zu", ret ? "ret" : "args", i);
	if (!(ev = tep_find_event_by_name(tep, "kft", name)))
		return;
	e = &a->ev[a->nev++];
	e->id = ev->id;
	e->ret = ret;
	e->spec = spec;
	e->func = tep_find_field(ev, ret ? "__probe_func" : "__probe_ip");
	e->sp = tep_find_field(ev, "sp");
	for (unsigned int k = 0; k < spec->n; k++) {
		char field[8];

		snprintf(field, sizeof(field), "v%u", k);
		e->val[k] = tep_find_field(ev, field);
		snprintf(field, sizeof(field), "s%u", k);
		e->str[k] = tep_find_field(ev, field);
	}
}

int kft_kargs_init(struct kft_kargs *a, struct tep_handle *tep, const struct kft_config *cfg)
{
	memset(a, 0, sizeof(*a));
	a->cfg = cfg;
	if (!cfg->args.n)
		return 0;
	if (!(a->ev = calloc(2 * cfg->args.n, sizeof(*a->ev))))
		return -1;
	for (size_t i = 0; i < cfg->args.n; i++) {
		find_event(a, tep, i, false);
		find_event(a, tep, i, true);
	}
	return 0;
}

static uint64_t field(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f)
		tep_read_number_field(f, rec->data, &v);
	return v;
}

/* Room for len more bytes in a->buf: where they go, or NULL. */
static unsigned char *room(struct kft_kargs *a, size_t len)
{
	if (a->len + len > a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 64 << 10;
		unsigned char *bigger;

		while (cap < a->len + len)
			cap *= 2;
		if (!(bigger = realloc(a->buf, cap))) {
			a->oom = true;
			return NULL;
		}
		a->buf = bigger;
		a->cap = cap;
	}
	a->len += len;
	return a->buf + a->len - len;
}

/* Item k's value (and a string's text) after what a->buf holds. */
static int keep_value(struct kft_kargs *a, const struct kft_kargs_event *e, unsigned int k,
		      struct tep_event *event, struct tep_record *rec)
{
	const struct kft_argitem *it = &e->spec->item[k];
	struct kft_argval v = { .value = field(e->val[k], rec), .slot = it->slot, .fmt = it->fmt,
				.bits = it->bits };
	const char *text = NULL;
	unsigned char *p;

	if (it->fmt == KFT_ARG_STR) {
		int len = 0;

		text = e->str[k] ? tep_get_field_raw(NULL, event, e->str[k]->name, rec, &len, 0)
				 : NULL;
		/* a string that could not be read is kept with no text */
		v.str_state = !v.value ? KFT_ARGSTR_NULL : !text || len <= 0 ? KFT_ARGSTR_FAULT
										: KFT_ARGSTR_READ;
		if (v.str_state == KFT_ARGSTR_READ) {
			size_t n = strnlen(text, (size_t)len);

			if (n > KFT_ARGS_STR_MAX) {
				n = KFT_ARGS_STR_MAX;
				v.str_state = KFT_ARGSTR_CUT;
			}
			v.str_len = (uint16_t)n;
		}
	}
	if (!(p = room(a, kft_argval_next(&v))))
		return -1;
	memset(p, 0, kft_argval_next(&v));
	memcpy(p, &v, sizeof(v));
	if (v.str_len)
		memcpy(p + sizeof(v), text, v.str_len);
	return 0;
}

bool kft_kargs_event(struct kft_kargs *a, struct tep_event *event, struct tep_record *rec,
		     struct kft_kev *e)
{
	const struct kft_kargs_event *ke = NULL;
	struct kept head = { 0 };
	size_t at;

	for (size_t i = 0; i < a->nev && !ke; i++)
		if (a->ev[i].id == event->id)
			ke = &a->ev[i];
	if (!ke)
		return false;
	e->type = ke->ret ? KFT_KEV_RETVAL : KFT_KEV_ARGS;
	e->func = field(ke->func, rec);
	at = a->len;
	if (!room(a, sizeof(head)))
		return true;
	head.sp = field(ke->sp, rec);
	for (unsigned int k = 0; k < ke->spec->n; k++) {
		if ((ke->spec->item[k].slot == KFT_ARGSLOT_RETVAL) != ke->ret)
			continue;
		if (keep_value(a, ke, k, event, rec))
			return true;
		head.n++;
	}
	head.len = (uint32_t)(a->len - at - sizeof(head));
	memcpy(a->buf + at, &head, sizeof(head));
	e->extra = at;
	return true;
}

struct kft_argvals kft_kargs_values(const struct kft_kargs *a, uint64_t off, uint64_t *sp)
{
	struct kept head;

	memcpy(&head, a->buf + off, sizeof(head));
	*sp = head.sp;
	return (struct kft_argvals){ a->buf + off + sizeof(head), head.len, head.n };
}

void kft_kargs_free(struct kft_kargs *a)
{
	free(a->ev);
	free(a->buf);
	memset(a, 0, sizeof(*a));
}
