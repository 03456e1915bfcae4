// SPDX-License-Identifier: LGPL-2.1
/*
 * Parser for the KFT configuration language. Unlike the original kernel
 * parser, keywords match whole words, '#' starts a comment, unknown words
 * are errors naming file, line and word, and a funclist without fend
 * cannot loop forever.
 */
#ifndef __KERNEL__	/* kft.ko builds it too: module/kft-libc.h */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "config.h"

/* -a gives every function of a program a spec: kept small */
_Static_assert(sizeof(struct kft_argitem) == 16, "an args spec's item is 16 bytes");

#define MAX_TOKEN 256

struct token {
	char text[MAX_TOKEN];
	unsigned int line;
	bool comma;		/* a ',' followed it (static funclist dialect) */
	bool line_end;		/* last token of its line */
};

struct parser {
	const char *origin;
	struct token *toks;
	size_t ntoks;
	size_t pos;
	struct kft_error *err;
};

/* Whether the word so far is a C++ operator's name waiting for its
 * word ("operator" then "new", "delete", a type). */
static bool ends_in_operator(const char *w, size_t n)
{
	return n >= 8 && !memcmp(w + n - 8, "operator", 8) &&
	       (n == 8 || w[n - 9] == ':');
}

/* Whether blanks at text[i] lead to a word on the same line (only that
 * word, with want). */
static bool word_follows(const char *text, size_t i, size_t len, const char *want)
{
	size_t n = want ? strlen(want) : 0;

	while (i < len && (text[i] == ' ' || text[i] == '\t'))
		i++;
	if (want)
		return i + n <= len && !memcmp(text + i, want, n) &&
		       (i + n == len || !isalnum((unsigned char)text[i + n]));
	return i < len && (isalpha((unsigned char)text[i]) || text[i] == '_');
}

/* Whether the word so far at w[0, n) goes on with the text at i: the word
 * of an operator, or a method's "const" after its parameters ("fend" ends
 * a list: a C function may be called operator). */
static bool word_goes_on(const char *w, size_t n, const char *text, size_t i, size_t len)
{
	return (ends_in_operator(w, n) && word_follows(text, i, len, NULL) &&
		!word_follows(text, i, len, "fend")) ||
	       (n && w[n - 1] == ')' && word_follows(text, i, len, "const"));
}

/* Whether s[0, n) begins an args spec's item: "arg...", "fparg..." or
 * "retval". */
static bool argspec_item_at(const char *s, size_t n)
{
	return (n >= 3 && !memcmp(s, "arg", 3)) || (n >= 5 && !memcmp(s, "fparg", 5)) ||
	       (n >= 5 && !memcmp(s, "stack", 5)) || (n >= 6 && !memcmp(s, "retval", 6));
}

/* The '@' that begins the spec of the args word w[0, n) ("FUNC@SPEC";
 * a symbol version, memcpy@GLIBC_2.14, is no spec), or NULL. */
static const char *argspec_at(const char *w, size_t n)
{
	for (const char *at = memchr(w, '@', n); at;
	     at = memchr(at + 1, '@', n - (size_t)(at + 1 - w)))
		if (argspec_item_at(at + 1, n - (size_t)(at + 1 - w)))
			return at;
	return NULL;
}

/* Whether the comma at text[i] goes on an args statement's spec, as in
 * "open@arg1/s,arg2,retval": the word so far has one, and another item
 * of it follows. */
static bool in_argspec(const char *w, size_t n, const char *text, size_t i, size_t len)
{
	return argspec_at(w, n) && argspec_item_at(text + i + 1, len - i - 1);
}

static int tokenize(struct parser *p, const char *text, size_t len)
{
	size_t cap = 64, i = 0;
	unsigned int line = 1;

	p->toks = calloc(cap, sizeof(*p->toks));
	if (!p->toks)
		return kft_error_set(p->err, "%s: out of memory", p->origin);
	while (i < len) {
		char c = text[i];

		if (c == '\n') {
			if (p->ntoks)
				p->toks[p->ntoks - 1].line_end = true;
			line++;
			i++;
		} else if (c == '#') {
			while (i < len && text[i] != '\n')
				i++;
		} else if (c == ',') {
			if (p->ntoks)
				p->toks[p->ntoks - 1].comma = true;
			i++;
		} else if (isspace((unsigned char)c)) {
			i++;
		} else if (c == '\0') {
			return kft_error_set(p->err, "%s:%u: NUL byte in config", p->origin, line);
		} else {
			struct token *t;
			size_t n = 0;
			int parens = 0;

			if (p->ntoks == cap) {
				struct token *bigger = realloc(p->toks, 2 * cap * sizeof(*bigger));

				if (!bigger)
					return kft_error_set(p->err, "%s: out of memory", p->origin);
				memset(bigger + cap, 0, cap * sizeof(*bigger));
				p->toks = bigger;
				cap *= 2;
			}
			t = &p->toks[p->ntoks++];
			t->line = line;
			while (i < len && text[i] != '\n' && text[i] != '\0') {
				/* a C++ name as the source writes it is one word:
				 * "f(int, char *)", "ns::Foo::operator new" */
				if (text[i] == '(')
					parens++;
				else if (text[i] == ')' && parens)
					parens--;
				if (text[i] == ',' && in_argspec(t->text, n, text, i, len)) {
					t->text[n++] = text[i++];
					continue;
				}
				if (!parens && (isspace((unsigned char)text[i]) || text[i] == '#' ||
						text[i] == ',')) {
					if (!word_goes_on(t->text, n, text, i, len))
						break;
					while (text[i] == ' ' || text[i] == '\t')
						i++;
					t->text[n++] = ' ';
					continue;
				}
				if (n + 2 >= MAX_TOKEN)
					return kft_error_set(p->err, "%s:%u: word too long", p->origin,
							     line);
				t->text[n++] = text[i++];
			}
			t->text[n] = '\0';
			/* the rest of the line went into it: say so, not later */
			if (parens)
				return kft_error_set(p->err, "%s:%u: '%s': a '(' without its ')'",
						     p->origin, line, t->text);
		}
	}
	if (p->ntoks)
		p->toks[p->ntoks - 1].line_end = true;
	return 0;
}

static struct token *peek(struct parser *p)
{
	return p->pos < p->ntoks ? &p->toks[p->pos] : NULL;
}

static unsigned int last_line(struct parser *p)
{
	return p->ntoks ? p->toks[p->ntoks - 1].line : 1;
}

/* Next token, or an error "expected WHAT after PREV". */
static struct token *expect(struct parser *p, const char *what, const struct token *prev)
{
	struct token *t = peek(p);

	if (!t) {
		kft_error_set(p->err, "%s:%u: expected %s after '%s', found end of file",
			      p->origin, prev ? prev->line : last_line(p), what,
			      prev ? prev->text : "");
		return NULL;
	}
	p->pos++;
	return t;
}

static int bad_word(struct parser *p, const struct token *t, const char *why)
{
	return kft_error_set(p->err, "%s:%u: '%s': %s", p->origin, t->line, t->text, why);
}

/* t as a decimal number: WHAT, the word after PREV, says the error. */
static int parse_u64(struct parser *p, const struct token *t, const char *what,
		     const struct token *prev, uint64_t max, uint64_t *out)
{
	const char *s = t->text;
	uint64_t v = 0;

	if (!*s)
		goto bad;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			goto bad;
		if (v > (max - (uint64_t)(*s - '0')) / 10)
			return kft_error_set(p->err, "%s:%u: '%s': number too large (at most %" PRIu64 ")",
					     p->origin, t->line, t->text, max);
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
bad:
	return kft_error_set(p->err, "%s:%u: '%s': expected %s (a decimal number) after '%s'",
			     p->origin, t->line, t->text, what, prev->text);
}

/* C names, and C++ names as written in the source: ns::Foo::bar,
 * ns::Foo::bar(int, char *), ns::f<int>, ns::Foo::operator(),
 * ns::Foo::operator new (an operator such as + goes by its mangled name) */
static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || (c && strchr("_.$@:()<>,*&~[] ", c));
}

#ifndef __KERNEL__
/* The enum types' names kft_enum_type_intern kept: few, and looked up
 * only as specs are made. */
struct enum_name {
	struct enum_name *next;
	char name[];
};
static struct enum_name *enum_names;
static pthread_mutex_t enum_names_lock = PTHREAD_MUTEX_INITIALIZER;

const char *kft_enum_type_intern(const char *name, size_t len)
{
	struct enum_name *e;

	pthread_mutex_lock(&enum_names_lock);
	for (e = enum_names; e; e = e->next)
		if (!strncmp(e->name, name, len) && !e->name[len])
			break;
	if (!e && (e = malloc(sizeof(*e) + len + 1))) {
		memcpy(e->name, name, len);
		e->name[len] = '\0';
		e->next = enum_names;
		enum_names = e;
	}
	pthread_mutex_unlock(&enum_names_lock);
	return e ? e->name : NULL;
}
#else
/* kft.ko saves words, and has no enums file to name them by */
const char *kft_enum_type_intern(const char *name, size_t len)
{
	(void)name;
	(void)len;
	return NULL;
}
#endif

bool kft_enum_type_ok(const char *name, size_t len)
{
	if (!len || len >= KFT_ENUM_TYPE_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_' && name[i] != ':')
			return false;
	return true;
}

const struct kft_argitem *kft_argspec_find(const struct kft_argspec *spec, int slot)
{
	for (unsigned int i = 0; i < spec->n; i++)
		if (spec->item[i].slot == slot)
			return &spec->item[i];
	return NULL;
}

int kft_argspec_merge(struct kft_argspec *to, const struct kft_argspec *from)
{
	for (unsigned int i = 0; i < from->n; i++) {
		if (kft_argspec_find(to, from->item[i].slot))
			continue;
		if (to->n == KFT_ARGSPEC_ITEMS)
			return -1;
		to->item[to->n++] = from->item[i];
	}
	return 0;
}

const char *kft_argslot_name(int slot, char *buf, size_t size)
{
	if (slot == KFT_ARGSLOT_RETVAL)
		snprintf(buf, size, "retval");
	else if (slot >= KFT_ARGSLOT_STACK0)
		snprintf(buf, size, "stack%d", slot - KFT_ARGSLOT_STACK0 + 1);
	else if (slot >= KFT_ARGSLOT_FP0)
		snprintf(buf, size, "fparg%d", slot - KFT_ARGSLOT_FP0 + 1);
	else
		snprintf(buf, size, "arg%d", slot + 1);
	return buf;
}

/* The slot an item's name s[0, n) names ("arg3", "fparg1", "retval"), or -1. */
static int argslot_of(const char *s, size_t n)
{
	if (n == 6 && !memcmp(s, "retval", 6))
		return KFT_ARGSLOT_RETVAL;
	if (n == 4 && !memcmp(s, "arg", 3) && s[3] >= '1' && s[3] <= '0' + KFT_MAX_ARGS)
		return s[3] - '1';
	if (n == 6 && !memcmp(s, "fparg", 5) && s[5] >= '1' && s[5] <= '0' + KFT_MAX_FPARGS)
		return KFT_ARGSLOT_FP0 + s[5] - '1';
	if (n == 6 && !memcmp(s, "stack", 5) && s[5] >= '1' && s[5] <= '0' + KFT_MAX_STACKARGS)
		return KFT_ARGSLOT_STACK0 + s[5] - '1';
	return -1;
}

/* One item of a spec, "arg3/x", "fparg1/f32" or "retval", into spec. */
static int argspec_item(const char *s, size_t n, struct kft_argspec *spec)
{
	const char *slash = memchr(s, '/', n);
	size_t name = slash ? (size_t)(slash - s) : n;
	int slot = argslot_of(s, name);
	bool fp_reg = slot >= KFT_ARGSLOT_FP0 && slot < KFT_ARGSLOT_STACK0;
	char fmt = fp_reg ? KFT_ARG_FLOAT : KFT_ARG_INT;
	uint8_t bits = 0;

	if (slot < 0 || kft_argspec_find(spec, slot) || spec->n == KFT_ARGSPEC_ITEMS)
		return -1;	/* no such place, or named twice */
	if (slash && n - name > 3 && slash[1] == KFT_ARG_ENUM && slash[2] == ':') {
		/* e:TYPE, a 32-bit value (C's enums are int-sized) */
		size_t len = n - name - 3;

		if (fp_reg || !kft_enum_type_ok(slash + 3, len))
			return -1;
		spec->item[spec->n] = (struct kft_argitem){ .slot = (uint8_t)slot,
							    .fmt = KFT_ARG_ENUM, .bits = 32 };
		if (!(spec->item[spec->n++].enum_type = kft_enum_type_intern(slash + 3, len)))
			return -1;
		return 0;
	}
	/* /S: a struct's place, in a register or on the stack, nothing saved */
	if (slash && n - name == 2 && slash[1] == KFT_ARG_AGGREGATE) {
		if (slot == KFT_ARGSLOT_RETVAL)
			return -1;
		spec->item[spec->n++] = (struct kft_argitem){ .slot = (uint8_t)slot,
							      .fmt = KFT_ARG_AGGREGATE };
		return 0;
	}
	if (slash) {
		size_t rest = n - name - 1;
		bool sized;

		if (!rest || !strchr("duxsbf", slash[1]))
			return -1;
		fmt = slash[1];
		sized = fmt != KFT_ARG_STR;
		if (rest == 1)
			;
		else if (sized && fmt != KFT_ARG_FLOAT && rest == 2 && slash[2] == '8')
			bits = 8;
		else if (sized && rest == 3 && ((fmt != KFT_ARG_FLOAT && !memcmp(slash + 2, "16", 2)) ||
						!memcmp(slash + 2, "32", 2) ||
						!memcmp(slash + 2, "64", 2)))
			bits = (uint8_t)((slash[2] - '0') * 10 + slash[3] - '0');
		else
			return -1;
		if (bits == 64)
			bits = 0;
	}
	/* a floating-point register holds floats only; an integer one none
	 * (the return value: rax, or xmm0 for /f); a word on the stack
	 * either */
	if (slot < KFT_ARGSLOT_STACK0 && fp_reg != (fmt == KFT_ARG_FLOAT) &&
	    !(slot == KFT_ARGSLOT_RETVAL && fmt == KFT_ARG_FLOAT))
		return -1;
	spec->item[spec->n++] = (struct kft_argitem){ .slot = (uint8_t)slot, .fmt = fmt,
						      .bits = bits };
	return 0;
}

int kft_argspec_parse(const char *text, struct kft_argspec *spec)
{
	memset(spec, 0, sizeof(*spec));
	for (;;) {
		const char *comma = strchr(text, ',');
		size_t n = comma ? (size_t)(comma - text) : strlen(text);

		if (argspec_item(text, n, spec))
			return -1;
		if (!comma)
			return 0;
		text = comma + 1;
	}
}

const char *kft_argspec_str(const struct kft_argspec *spec, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < spec->n; i++) {
		const struct kft_argitem *it = &spec->item[i];
		bool plain = it->slot >= KFT_ARGSLOT_STACK0 ? false
			     : it->slot >= KFT_ARGSLOT_FP0 ? it->fmt == KFT_ARG_FLOAT && !it->bits
							    : it->fmt == KFT_ARG_INT && !it->bits;
		char name[16];
		int w;

		w = snprintf(buf + n, size - n, "%s%s", n ? "," : "",
			     kft_argslot_name(it->slot, name, sizeof(name)));
		if (w > 0 && (size_t)w < size - n)
			n += (size_t)w;
		if (it->fmt == KFT_ARG_ENUM) {
			w = snprintf(buf + n, size - n, "/e:%s", it->enum_type);
			if (w > 0 && (size_t)w < size - n)
				n += (size_t)w;
			continue;
		}
		if (!plain && n + 5 < size)
			n += (size_t)snprintf(buf + n, size - n, "/%c", it->fmt);
		if (it->bits && n + 3 < size)
			n += (size_t)snprintf(buf + n, size - n, "%u", it->bits);
	}
	return buf;
}

/* An args statement's word, "FUNC@SPEC" or "FUNC" (its first three
 * arguments): the function into t's text, the spec into spec. */
static int split_argspec(struct parser *p, struct token *t, struct kft_argspec *spec)
{
	char *at = (char *)argspec_at(t->text, strlen(t->text));

	if (!at) {
		kft_argspec_parse("arg1,arg2,arg3", spec);
		return 0;
	}
	if (kft_argspec_parse(at + 1, spec))
		return bad_word(p, t, "expected FUNC@SPEC, SPEC as arg1,arg2/x,retval/d32: "
				      "arg1 to arg6, fparg1 to fparg8 and retval, each once, "
				      "/d, /u, /x, /b (with a size: 8, 16, 32, 64), /s, "
				      "/e:ENUM, or /f (fparg, retval; 32 or 64)");
	*at = '\0';
	return 0;
}

static int parse_func(struct parser *p, const struct token *t, struct kft_func_ref *ref)
{
	const char *s = t->text;

	ref->name = NULL;
	ref->addr = 0;
	ref->line = t->line;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		uint64_t v = 0;
		const char *d = s + 2;

		if (!*d || strlen(d) > 16)
			return bad_word(p, t, "expected a function name or a hex address");
		for (; *d; d++) {
			if (!isxdigit((unsigned char)*d))
				return bad_word(p, t, "expected a function name or a hex address");
			v = v * 16 + (uint64_t)(isdigit((unsigned char)*d) ? *d - '0' :
						tolower((unsigned char)*d) - 'a' + 10);
		}
		if (!v)
			return bad_word(p, t, "function address 0 is not valid");
		ref->addr = v;
		return 0;
	}
	if (isdigit((unsigned char)s[0]))
		return bad_word(p, t, "expected a function name or a hex address (0x...)");
	for (const char *c = s; *c; c++)
		/* a glob's ? and, in brackets, ranges (a-c) and negation (!a) */
		if (!is_ident_char(*c) && !(kft_is_glob(s) && strchr("?-!", *c)))
			return bad_word(p, t, "not a valid function name");
	ref->name = strdup(s);
	if (!ref->name)
		return kft_error_set(p->err, "%s: out of memory", p->origin);
	return 0;
}

static int parse_trigger(struct parser *p, struct kft_config *cfg, const struct token *kw)
{
	struct token *which, *type, *arg;
	struct kft_trigger *trig;

	which = expect(p, "'start' or 'stop'", kw);
	if (!which)
		return -1;
	if (!strcmp(which->text, "start"))
		trig = &cfg->start;
	else if (!strcmp(which->text, "stop"))
		trig = &cfg->stop;
	else
		return bad_word(p, which, "expected 'start' or 'stop' after 'trigger'");
	if (trig->type != KFT_TRIGGER_NONE)
		return bad_word(p, which, "this trigger is already set");
	type = expect(p, "'entry', 'exit' or 'time'", which);
	if (!type)
		return -1;
	arg = expect(p, !strcmp(type->text, "time") ? "a time in microseconds" : "a function",
		     type);
	if (!arg)
		return -1;
	if (!strcmp(type->text, "time")) {
		trig->type = KFT_TRIGGER_TIME;
		return parse_u64(p, arg, "a time in microseconds", type, UINT64_MAX / 1000,
				 &trig->usecs);
	}
	if (!strcmp(type->text, "entry"))
		trig->type = KFT_TRIGGER_ENTRY;
	else if (!strcmp(type->text, "exit"))
		trig->type = KFT_TRIGGER_EXIT;
	else
		return bad_word(p, type, "expected 'entry', 'exit' or 'time'");
	return parse_func(p, arg, &trig->func);
}

static bool block_has_fend(struct parser *p)
{
	for (size_t i = p->pos; i < p->ntoks; i++) {
		if (!strcmp(p->toks[i].text, "fend"))
			return true;
		if (!strcmp(p->toks[i].text, "end"))
			return false;
	}
	return false;
}

const struct kft_set *kft_config_set(const struct kft_config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->nsets; i++)
		if (!strcmp(cfg->sets[i].name, name))
			return &cfg->sets[i];
	return NULL;
}

/* "set NAME F1 F2 ...", to the end of its line: names or globs. */
static int parse_set(struct parser *p, struct kft_config *cfg, const struct token *kw)
{
	struct token *name = expect(p, "a name for the set", kw);
	const struct token *prev = name;
	struct kft_set *bigger, *set;

	if (!name)
		return -1;
	if (kw->line_end || name->line != kw->line)
		return bad_word(p, kw, "a set needs a name and its functions on its line");
	if (!isalpha((unsigned char)name->text[0]) && name->text[0] != '_')
		return bad_word(p, name, "a set's name starts with a letter or '_'");
	if (kft_config_set(cfg, name->text))
		return bad_word(p, name, "this set is already defined");
	bigger = realloc(cfg->sets, (cfg->nsets + 1) * sizeof(*bigger));
	if (!bigger)
		return kft_error_set(p->err, "%s: out of memory", p->origin);
	cfg->sets = bigger;
	set = &cfg->sets[cfg->nsets++];
	memset(set, 0, sizeof(*set));
	if (!(set->name = strdup(name->text)))
		return kft_error_set(p->err, "%s: out of memory", p->origin);
	while (!prev->line_end) {
		struct token *t = peek(p);
		char **more;

		if (!t || t->line != name->line)
			break;
		p->pos++;
		if (set->nmembers == KFT_MAX_FUNCLIST)
			return bad_word(p, t, "too many functions in a set");
		more = realloc(set->members, (set->nmembers + 1) * sizeof(*more));
		if (!more)
			return kft_error_set(p->err, "%s: out of memory", p->origin);
		set->members = more;
		if (!(set->members[set->nmembers] = strdup(t->text)))
			return kft_error_set(p->err, "%s: out of memory", p->origin);
		set->nmembers++;
		prev = t;
	}
	if (!set->nmembers)
		return bad_word(p, name, "an empty set");
	return 0;
}

/*
 * Two dialects: "funclist a b c fend" (the /proc/kft one, may span lines)
 * and "funclist a, b," + "c" (kftstatic.conf: a trailing comma continues
 * the list on the next line, no fend).
 */
static int add_func(struct parser *p, size_t *n, struct kft_func_ref **refs,
		    const struct token *t, size_t *cap)
{
	if (*n == KFT_MAX_FUNCLIST)
		return bad_word(p, t, "too many functions in one list (4096 at most)");
	if (*n == *cap) {
		size_t ncap = *cap ? 2 * *cap : 16;
		struct kft_func_ref *bigger = realloc(*refs, ncap * sizeof(*bigger));

		if (!bigger)
			return kft_error_set(p->err, "%s: out of memory", p->origin);
		*refs = bigger;
		*cap = ncap;
	}
	if (parse_func(p, t, &(*refs)[*n]))
		return -1;
	(*n)++;
	return 0;
}

/* An args word (t) into the list: its function into refs, its spec into
 * specs, function n - 1's (specs NULL: any other list, t as it is). */
static int add_func_spec(struct parser *p, size_t *n, struct kft_func_ref **refs,
			 struct token *t, size_t *cap, struct kft_argspec **specs)
{
	struct kft_argspec spec, *more;

	if (specs && split_argspec(p, t, &spec))
		return -1;
	if (add_func(p, n, refs, t, cap))
		return -1;
	if (!specs)
		return 0;
	if (!(more = realloc(*specs, *n * sizeof(*more))))
		return kft_error_set(p->err, "%s: out of memory", p->origin);
	*specs = more;
	more[*n - 1] = spec;
	return 0;
}

/* funclist, notrace, graph or args: what names the list, and the list;
 * specs: args' specs, one a function (NULL for the others). */
static int parse_funclist(struct parser *p, struct kft_config *cfg, const struct token *kw,
			  bool *has, size_t *n, struct kft_func_ref **refs,
			  struct kft_argspec **specs)
{
	bool fended = block_has_fend(p);
	const struct token *prev = kw;
	size_t cap = 0;

	if (*has)
		return bad_word(p, kw, refs == &cfg->funcs ? "the function list is already set"
							   : "that list is already set");
	*has = true;
	for (;;) {
		struct token *t;

		if (!fended && (prev->line_end && !prev->comma) && prev != kw)
			break;
		t = expect(p, fended ? "a function or 'fend'" : "a function", prev);
		if (!t)
			return -1;
		if (fended && !strcmp(t->text, "fend"))
			break;
		if (!strcmp(t->text, "end"))
			return bad_word(p, t, "function list needs 'fend' before 'end'");
		if (t->text[0] == '@') {
			/* a set: its functions, named as the set names them */
			const struct kft_set *set = kft_config_set(cfg, t->text + 1);

			if (!set)
				return bad_word(p, t, "no such set (a set is defined before "
						      "the funclist that names it)");
			for (size_t i = 0; i < set->nmembers; i++) {
				struct token m = *t;

				snprintf(m.text, sizeof(m.text), "%s", set->members[i]);
				if (add_func_spec(p, n, refs, &m, &cap, specs))
					return -1;
			}
		} else if (add_func_spec(p, n, refs, t, &cap, specs)) {
			return -1;
		}
		prev = t;
	}
	if (!*n)
		return bad_word(p, kw, "empty function list");
	return 0;
}

/* A CPU number of a "filter cpus" list, from *s on. */
static int parse_cpu_number(struct parser *p, const struct token *t, const char **s,
			    unsigned int *cpu)
{
	unsigned int v = 0;

	if (!isdigit((unsigned char)**s))
		return bad_word(p, t, "expected a CPU list (0,2-3) or a hex mask (0x...)");
	for (; isdigit((unsigned char)**s); (*s)++) {
		v = v * 10 + (unsigned int)(**s - '0');
		if (v >= KFT_MAX_CPUS)
			return kft_error_set(p->err, "%s:%u: '%s': CPU numbers go up to %d",
					     p->origin, t->line, t->text, KFT_MAX_CPUS - 1);
	}
	*cpu = v;
	return 0;
}

/* One word of a CPU list: "N" or "N-M", or the whole mask "0x..." */
static int cpus_word(struct parser *p, struct kft_config *cfg, const struct token *t)
{
	const char *s = t->text;
	unsigned int from, to;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		size_t n = strlen(s + 2);

		if (!n || n > KFT_MAX_CPUS / 4)
			return bad_word(p, t, "expected a hex mask of CPUs (0x3: CPUs 0 and 1)");
		for (size_t i = 0; i < n; i++) {
			char c = (char)tolower((unsigned char)s[2 + n - 1 - i]);
			uint64_t nib;

			if (!isxdigit((unsigned char)c))
				return bad_word(p, t, "expected a hex mask of CPUs (0x3: CPUs 0 "
						      "and 1)");
			nib = (uint64_t)(isdigit((unsigned char)c) ? c - '0' : c - 'a' + 10);
			cfg->cpus[i / 16] |= nib << (4 * (i % 16));
		}
		return 0;
	}
	if (parse_cpu_number(p, t, &s, &from))
		return -1;
	to = from;
	if (*s == '-') {
		s++;
		if (parse_cpu_number(p, t, &s, &to))
			return -1;
	}
	if (*s || to < from)
		return bad_word(p, t, "expected a CPU list (0,2-3) or a hex mask (0x...)");
	for (unsigned int c = from; c <= to; c++)
		cfg->cpus[c / 64] |= 1ULL << (c % 64);
	return 0;
}

/* "filter cpus 0,2-3" (commas end words: the list is words joined by
 * them) or "filter cpus 0xd": the CPUs calls are logged on. */
static int parse_cpus(struct parser *p, struct kft_config *cfg, const struct token *what)
{
	const struct token *t = what;
	bool any = false;

	memset(cfg->cpus, 0, sizeof(cfg->cpus));
	do {
		t = expect(p, "a CPU list (0,2-3) or a hex mask (0x...)", t);
		if (!t || cpus_word(p, cfg, t))
			return -1;
	} while (t->comma);
	for (size_t i = 0; i < KFT_MAX_CPUS / 64; i++)
		any |= cfg->cpus[i] != 0;
	if (!any)
		return bad_word(p, t, "names no CPU: every call would be dropped");
	cfg->cpus_set = true;
	return 0;
}

const char *kft_config_cpus_str(const struct kft_config *cfg, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int c = 0; c < KFT_MAX_CPUS; c++) {
		unsigned int end = c;
		int k;

		if (!kft_config_cpu_in(cfg, c))
			continue;
		while (end + 1 < KFT_MAX_CPUS && kft_config_cpu_in(cfg, end + 1))
			end++;
		k = end == c ? snprintf(buf + n, size - n, "%s%u", n ? "," : "", c)
			     : snprintf(buf + n, size - n, "%s%u-%u", n ? "," : "", c, end);
		if (k < 0 || (size_t)k >= size - n)
			break;
		n += (size_t)k;
		c = end;
	}
	return buf;
}

static int parse_filter(struct parser *p, struct kft_config *cfg, const struct token *kw)
{
	struct token *what = expect(p, "a filter type", kw);
	struct token *arg;

	if (!what)
		return -1;
	if (!strcmp(what->text, "mintime") || !strcmp(what->text, "maxtime")) {
		uint64_t *dst = what->text[1] == 'i' ? &cfg->mintime : &cfg->maxtime;

		arg = expect(p, "a time in microseconds", what);
		if (!arg)
			return -1;
		return parse_u64(p, arg, "a time in microseconds", what, UINT64_MAX / 1000, dst);
	}
	if (!strcmp(what->text, "noints")) {
		cfg->noints = true;
		return 0;
	}
	if (!strcmp(what->text, "onlyints")) {
		cfg->onlyints = true;
		return 0;
	}
	if (!strcmp(what->text, "cpus"))
		return parse_cpus(p, cfg, what);
	if (!strcmp(what->text, "funclist"))
		return parse_funclist(p, cfg, what, &cfg->has_funclist, &cfg->nfuncs, &cfg->funcs,
				      NULL);
	if (!strcmp(what->text, "notrace"))
		return parse_funclist(p, cfg, what, &cfg->skip_list.set, &cfg->skip_list.n,
				      &cfg->skip_list.refs, NULL);
	if (!strcmp(what->text, "graph"))
		return parse_funclist(p, cfg, what, &cfg->graph.set, &cfg->graph.n,
				      &cfg->graph.refs, NULL);
	if (!strcmp(what->text, "depth")) {
		uint64_t v;

		arg = expect(p, "a number of levels", what);
		if (!arg || parse_u64(p, arg, "a number of levels", what, 65535, &v))
			return -1;
		if (!v)
			return bad_word(p, arg, "a depth of at least 1");
		cfg->max_depth = (uint32_t)v;
		return 0;
	}
	return bad_word(p, what, "unknown filter (expected mintime, maxtime, noints, onlyints, "
			"cpus, funclist, notrace, graph or depth)");
}

static int parse_watch(struct parser *p, struct kft_config *cfg, const struct token *kw)
{
	struct token *what = expect(p, "'stack' or 'worst-stack'", kw);
	struct token *arg;

	if (!what)
		return -1;
	if (!strcmp(what->text, "stack"))
		cfg->watch = KFT_WATCH_STACK;
	else if (!strcmp(what->text, "worst-stack"))
		cfg->watch = KFT_WATCH_WORST_STACK;
	else
		return bad_word(p, what, "expected 'stack' or 'worst-stack'");
	arg = expect(p, "a stack size in bytes", what);
	if (!arg)
		return -1;
	return parse_u64(p, arg, "a stack size in bytes", what, UINT32_MAX, &cfg->watch_bytes);
}

static int parse_statement(struct parser *p, struct kft_config *cfg, const struct token *kw)
{
	const char *w = kw->text;

	if (!strcmp(w, "trigger"))
		return parse_trigger(p, cfg, kw);
	if (!strcmp(w, "filter"))
		return parse_filter(p, cfg, kw);
	if (!strcmp(w, "watch"))
		return parse_watch(p, cfg, kw);
	if (!strcmp(w, "set"))
		return parse_set(p, cfg, kw);
	if (!strcmp(w, "args"))
		return parse_funclist(p, cfg, kw, &cfg->args.set, &cfg->args.n, &cfg->args.refs,
				      &cfg->argspecs);
	if (!strcmp(w, "logentries")) {
		struct token *arg = expect(p, "a number of entries", kw);

		if (!arg || parse_u64(p, arg, "a number of entries", kw, KFT_MAX_LOGENTRIES,
				      &cfg->logentries))
			return -1;
		if (!cfg->logentries)
			return bad_word(p, arg, "logentries must be at least 1");
		cfg->logentries_set = true;
		return 0;
	}
	if (!strcmp(w, "autorepeat")) {
		cfg->autorepeat = true;
		return 0;
	}
	if (!strcmp(w, "overwrite")) {
		cfg->overwrite = true;
		return 0;
	}
	if (!strcmp(w, "prime")) {
		cfg->prime = true;
		return 0;
	}
	if (!strcmp(w, "libcalls")) {
		struct token *all;

		cfg->libcalls = true;
		if (kw->line_end)
			return 0;
		if (!(all = expect(p, "'all' or the end of the line", kw)))
			return -1;
		if (strcmp(all->text, "all"))
			return bad_word(p, all, "expected 'all' or the end of the line after "
					"'libcalls'");
		cfg->libcalls_all = true;
		return 0;
	}
	if (!strcmp(w, "untimed"))
		return bad_word(p, kw, "not supported: kft always times calls");
	if (!strcmp(w, "begin") || !strcmp(w, "new"))
		return bad_word(p, kw, "unexpected inside a begin ... end block");
	return bad_word(p, kw, "unknown statement (expected trigger, filter, watch, set, args, "
			"logentries, autorepeat, overwrite, prime, libcalls or end)");
}

void kft_config_init(struct kft_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->logentries = KFT_DEFAULT_LOGENTRIES;
}

/* Room in *to (n refs) for more after them: 0, or -1. */
static int room_for(struct kft_func_ref **to, size_t n, size_t more)
{
	struct kft_func_ref *bigger;

	if (!more)
		return 0;
	if (!(bigger = realloc(*to, (n + more) * sizeof(*bigger))))
		return -1;
	*to = bigger;
	return 0;
}

/* from's refs (nfrom) after to's (nto), from emptied. */
static void move_refs(struct kft_func_ref *to, size_t *nto, bool *to_set,
		      struct kft_func_ref *from, size_t *nfrom, bool *from_set)
{
	for (size_t i = 0; i < *nfrom; i++) {
		to[*nto + i] = from[i];
		to[*nto + i].line = 0;	/* from no line of the config's */
	}
	*nto += *nfrom;
	*to_set = *to_set || *from_set;
	*nfrom = 0;
	*from_set = false;
}

int kft_config_merge(struct kft_config *cfg, struct kft_config *from)
{
	struct kft_argspec *specs;

	/* all the room first: out of memory changes nothing */
	if (room_for(&cfg->funcs, cfg->nfuncs, from->nfuncs) ||
	    room_for(&cfg->skip_list.refs, cfg->skip_list.n, from->skip_list.n) ||
	    room_for(&cfg->graph.refs, cfg->graph.n, from->graph.n) ||
	    room_for(&cfg->args.refs, cfg->args.n, from->args.n))
		return -1;
	if (from->args.n) {
		specs = realloc(cfg->argspecs, (cfg->args.n + from->args.n) * sizeof(*specs));
		if (!specs)
			return -1;
		memcpy(specs + cfg->args.n, from->argspecs, from->args.n * sizeof(*specs));
		cfg->argspecs = specs;
	}
	move_refs(cfg->funcs, &cfg->nfuncs, &cfg->has_funclist, from->funcs, &from->nfuncs,
		  &from->has_funclist);
	move_refs(cfg->skip_list.refs, &cfg->skip_list.n, &cfg->skip_list.set,
		  from->skip_list.refs, &from->skip_list.n, &from->skip_list.set);
	move_refs(cfg->graph.refs, &cfg->graph.n, &cfg->graph.set, from->graph.refs,
		  &from->graph.n, &from->graph.set);
	move_refs(cfg->args.refs, &cfg->args.n, &cfg->args.set, from->args.refs, &from->args.n,
		  &from->args.set);
	if (from->max_depth)
		cfg->max_depth = from->max_depth;
	if (from->cpus_set) {
		cfg->cpus_set = true;
		memcpy(cfg->cpus, from->cpus, sizeof(cfg->cpus));
	}
	return 0;
}

int kft_config_add_args(struct kft_config *cfg, const char *name, const struct kft_argspec *spec)
{
	struct kft_func_ref *refs = realloc(cfg->args.refs, (cfg->args.n + 1) * sizeof(*refs));
	struct kft_argspec *specs;
	char *copy;

	if (!refs)
		return -1;
	cfg->args.refs = refs;
	specs = realloc(cfg->argspecs, (cfg->args.n + 1) * sizeof(*specs));
	if (!specs)
		return -1;
	cfg->argspecs = specs;
	if (!(copy = strdup(name)))
		return -1;
	refs[cfg->args.n] = (struct kft_func_ref){ .name = copy };
	specs[cfg->args.n] = *spec;
	cfg->args.n++;
	cfg->args.set = true;
	return 0;
}

bool kft_config_has_args(const struct kft_config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->args.n; i++)
		if (cfg->args.refs[i].name && !strcmp(cfg->args.refs[i].name, name))
			return true;
	return false;
}

void kft_config_release(struct kft_config *cfg)
{
	free(cfg->start.func.name);
	free(cfg->stop.func.name);
	for (size_t i = 0; i < cfg->nfuncs; i++)
		free(cfg->funcs[i].name);
	free(cfg->funcs);
	for (size_t i = 0; i < cfg->skip_list.n; i++)
		free(cfg->skip_list.refs[i].name);
	free(cfg->skip_list.refs);
	for (size_t i = 0; i < cfg->graph.n; i++)
		free(cfg->graph.refs[i].name);
	free(cfg->graph.refs);
	for (size_t i = 0; i < cfg->args.n; i++)
		free(cfg->args.refs[i].name);
	free(cfg->args.refs);
	free(cfg->argspecs);
	for (size_t i = 0; i < cfg->nsets; i++) {
		for (size_t k = 0; k < cfg->sets[i].nmembers; k++)
			free(cfg->sets[i].members[k]);
		free(cfg->sets[i].members);
		free(cfg->sets[i].name);
	}
	free(cfg->sets);
	kft_config_init(cfg);
}

static int parse_block(struct parser *p, struct kft_config *cfg)
{
	struct token *t = peek(p);

	if (t && !strcmp(t->text, "new")) {
		cfg->has_new = true;
		p->pos++;
		t = peek(p);
	}
	if (!t)
		return kft_error_set(p->err, "%s:%u: empty config: expected 'begin'", p->origin,
				     last_line(p));
	if (strcmp(t->text, "begin"))
		return bad_word(p, t, "expected 'begin'");
	p->pos++;
	for (;;) {
		t = peek(p);
		if (!t)
			return kft_error_set(p->err, "%s:%u: missing 'end'", p->origin, last_line(p));
		p->pos++;
		if (!strcmp(t->text, "end"))
			break;
		if (parse_statement(p, cfg, t))
			return -1;
	}
	t = peek(p);
	if (t)
		return bad_word(p, t, "unexpected after 'end' (one begin ... end block per config)");
	if (cfg->noints && cfg->onlyints)
		return kft_error_set(p->err, "%s: 'filter noints' and 'filter onlyints' together "
				     "drop every call", p->origin);
	if (cfg->mintime && cfg->maxtime && cfg->mintime > cfg->maxtime)
		return kft_error_set(p->err, "%s: mintime %" PRIu64 " is above maxtime %" PRIu64
				     ": every call would be dropped", p->origin, cfg->mintime,
				     cfg->maxtime);
	return 0;
}

int kft_config_parse(struct kft_config *cfg, const char *text, size_t len, const char *origin,
		     struct kft_error *err)
{
	struct parser p = { .origin = origin ? origin : "config", .err = err };
	int ret;

	kft_config_init(cfg);
	ret = tokenize(&p, text, len);
	if (!ret)
		ret = parse_block(&p, cfg);
	free(p.toks);
	if (ret)
		kft_config_release(cfg);
	return ret;
}

#ifndef __KERNEL__
int kft_config_load(struct kft_config *cfg, const char *path, struct kft_error *err)
{
	struct stat st;
	char *buf = NULL;
	ssize_t n;
	size_t got = 0;
	int fd, ret = -1;

	kft_config_init(cfg);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kft_error_set(err, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) || st.st_size > (1 << 20)) {
		kft_error_set(err, "%s: not a config file (too large or unreadable)", path);
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		kft_error_set(err, "%s: out of memory", path);
		goto out;
	}
	while ((n = read(fd, buf + got, (size_t)st.st_size - got)) > 0)
		got += (size_t)n;
	if (n < 0) {
		kft_error_set(err, "%s: %s", path, strerror(errno));
		goto out;
	}
	ret = kft_config_parse(cfg, buf, got, path, err);
out:
	free(buf);
	close(fd);
	return ret;
}

#endif

bool kft_is_glob(const char *name)
{
	return strpbrk(name, "*?[") != NULL;
}

const char *kft_func_ref_str(const struct kft_func_ref *ref, char *buf, size_t size)
{
	if (ref->name)
		snprintf(buf, size, "%s", ref->name);
	else
		snprintf(buf, size, "0x%" PRIx64, ref->addr);
	return buf;
}

struct strbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

static void sb_add(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_add(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sb->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(sb->s + sb->len, sb->cap - sb->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			sb->oom = true;
			return;
		}
		if ((size_t)n < sb->cap - sb->len) {
			sb->len += (size_t)n;
			return;
		}
		char *bigger = realloc(sb->s, 2 * sb->cap + (size_t)n);

		if (!bigger) {
			sb->oom = true;
			return;
		}
		sb->s = bigger;
		sb->cap = 2 * sb->cap + (size_t)n;
	}
}

static void format_trigger(struct strbuf *sb, const char *which, const struct kft_trigger *t)
{
	char buf[MAX_TOKEN];	/* any word the parser took */

	switch (t->type) {
	case KFT_TRIGGER_ENTRY:
	case KFT_TRIGGER_EXIT:
		sb_add(sb, "\ttrigger %s %s %s\n", which,
		       t->type == KFT_TRIGGER_ENTRY ? "entry" : "exit",
		       kft_func_ref_str(&t->func, buf, sizeof(buf)));
		break;
	case KFT_TRIGGER_TIME:
		sb_add(sb, "\ttrigger %s time %" PRIu64 "\n", which, t->usecs);
		break;
	default:
		break;
	}
}

char *kft_config_format(const struct kft_config *cfg)
{
	struct strbuf sb = { .cap = 256 };
	char buf[MAX_TOKEN];

	sb.s = malloc(sb.cap);
	if (!sb.s)
		return NULL;
	sb.s[0] = '\0';
	if (cfg->has_new)
		sb_add(&sb, "new\n");
	sb_add(&sb, "begin\n");
	format_trigger(&sb, "start", &cfg->start);
	format_trigger(&sb, "stop", &cfg->stop);
	if (cfg->mintime)
		sb_add(&sb, "\tfilter mintime %" PRIu64 "\n", cfg->mintime);
	if (cfg->maxtime)
		sb_add(&sb, "\tfilter maxtime %" PRIu64 "\n", cfg->maxtime);
	if (cfg->noints)
		sb_add(&sb, "\tfilter noints\n");
	if (cfg->onlyints)
		sb_add(&sb, "\tfilter onlyints\n");
	if (cfg->cpus_set) {
		char *cpus = malloc(KFT_CPUS_STR_MAX);

		if (cpus)
			sb_add(&sb, "\tfilter cpus %s\n",
			       kft_config_cpus_str(cfg, cpus, KFT_CPUS_STR_MAX));
		else
			sb.oom = true;
		free(cpus);
	}
	for (size_t i = 0; i < cfg->nsets; i++) {
		sb_add(&sb, "\tset %s", cfg->sets[i].name);
		for (size_t k = 0; k < cfg->sets[i].nmembers; k++)
			sb_add(&sb, " %s", cfg->sets[i].members[k]);
		sb_add(&sb, "\n");
	}
	if (cfg->has_funclist) {
		sb_add(&sb, "\tfilter funclist");
		for (size_t i = 0; i < cfg->nfuncs; i++)
			sb_add(&sb, " %s", kft_func_ref_str(&cfg->funcs[i], buf, sizeof(buf)));
		sb_add(&sb, " fend\n");
	}
	for (int l = 0; l < 2; l++) {
		const struct kft_func_list *list = l ? &cfg->graph : &cfg->skip_list;

		if (!list->set)
			continue;
		sb_add(&sb, "\tfilter %s", l ? "graph" : "notrace");
		for (size_t i = 0; i < list->n; i++)
			sb_add(&sb, " %s", kft_func_ref_str(&list->refs[i], buf, sizeof(buf)));
		sb_add(&sb, " fend\n");
	}
	if (cfg->max_depth)
		sb_add(&sb, "\tfilter depth %u\n", cfg->max_depth);
	if (cfg->args.set) {
		char spec[256];

		sb_add(&sb, "\targs");
		for (size_t i = 0; i < cfg->args.n; i++)
			sb_add(&sb, " %s@%s", kft_func_ref_str(&cfg->args.refs[i], buf, sizeof(buf)),
			       kft_argspec_str(&cfg->argspecs[i], spec, sizeof(spec)));
		sb_add(&sb, " fend\n");
	}
	if (cfg->watch != KFT_WATCH_NONE)
		sb_add(&sb, "\twatch %s %" PRIu64 "\n",
		       cfg->watch == KFT_WATCH_STACK ? "stack" : "worst-stack", cfg->watch_bytes);
	if (cfg->logentries_set)
		sb_add(&sb, "\tlogentries %" PRIu64 "\n", cfg->logentries);
	if (cfg->autorepeat)
		sb_add(&sb, "\tautorepeat\n");
	if (cfg->overwrite)
		sb_add(&sb, "\toverwrite\n");
	if (cfg->prime)
		sb_add(&sb, "\tprime\n");
	sb_add(&sb, "end\n");
	if (sb.oom) {
		free(sb.s);
		return NULL;
	}
	return sb.s;
}
