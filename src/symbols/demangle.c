// SPDX-License-Identifier: LGPL-2.1
#include <ctype.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#ifdef KFT_LIBIBERTY
#include <libiberty/demangle.h>
#endif

#include "../common/own-lib.h"
#include "demangle.h"

bool kft_is_mangled(const char *name)
{
	return !strncmp(name, "_Z", 2)
#ifdef KFT_LIBIBERTY
	       || !strncmp(name, "_R", 2)
#endif
		;
}

#ifdef KFT_LIBIBERTY
/* The tools: libiberty's demangler, which reads C++ and Rust's two
 * schemes (legacy, whose hash it leaves out as rustfilt does, and v0). */
char *kft_demangle(const char *name)
{
	if (!kft_is_mangled(name))
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO);
}
#else
typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

static cxa_demangle_fn find_demangler(void)
{
	static cxa_demangle_fn fn;
	static bool tried;
	void *lib;

	if (tried)
		return fn;
	tried = true;
	fn = (cxa_demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
	if (!fn && (lib = kft_own_lib("libstdc++.so.6")))
		fn = (cxa_demangle_fn)dlsym(lib, "__cxa_demangle");
	return fn;
}

char *kft_demangle(const char *name)
{
	cxa_demangle_fn fn;
	int status = -1;
	char *out, *copy;

	if (strncmp(name, "_Z", 2) || !(fn = find_demangler()))
		return NULL;
	/* __cxa_demangle allocates with the C library's malloc, which the
	 * runtime's free is not (runtime/own-alloc.h): the name is copied,
	 * and let go with the C library's free, called as (free) */
	out = fn(name, NULL, NULL, &status);
	copy = status || !out ? NULL : strdup(out);
	(free)(out);
	return copy;
}
#endif

#define ANON "(anonymous namespace)"

/* Where the parameter list begins: the first '(' outside <...>, past an
 * "operator()" of the name itself; or the end. *name_at is where the
 * name begins: after the return type a template function's name has. */
static size_t params_at(const char *d, size_t *name_at)
{
	int depth = 0;

	*name_at = 0;
	for (size_t i = 0; d[i]; i++) {
		if (!strncmp(d + i, ANON, sizeof(ANON) - 1)) {
			i += sizeof(ANON) - 2;
			continue;
		}
		if (d[i] == ' ' && !depth && (i < 8 || strncmp(d + i - 8, "operator", 8)))
			*name_at = i + 1;	/* what came before was the return type */
		if (!strncmp(d + i, "operator", 8)) {
			/* the operator's own symbols are part of the name */
			i += 8;
			if (!strncmp(d + i, "()", 2))
				i += 2;
			else
				while (d[i] && strchr("<>=!+-*/%^&|~[],", d[i]))
					i++;
			i--;
			continue;
		}
		if (d[i] == '<')
			depth++;
		else if (d[i] == '>' && depth)
			depth--;
		else if (d[i] == '(' && !depth)
			return i;
	}
	return strlen(d);
}

static bool is_word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Blanks dropped, but for one between two words ("operator new",
 * "unsigned int"): "bar(int) const" and "bar(int)const" are one name. */
static void copy_no_blanks(const char *s, size_t n, char *out, size_t size)
{
	size_t k = 0;

	for (size_t i = 0; i < n && s[i] && k + 1 < size; i++) {
		if (s[i] != ' ') {
			out[k++] = s[i];
			continue;
		}
		while (i + 1 < n && s[i + 1] == ' ')
			i++;
		if (k && is_word_char(out[k - 1]) && i + 1 < n && is_word_char(s[i + 1]))
			out[k++] = ' ';
	}
	if (size)
		out[k] = '\0';
}

void kft_demangle_base(const char *demangled, char *out, size_t size)
{
	size_t name_at, end = params_at(demangled, &name_at);

	copy_no_blanks(demangled + name_at, end - name_at, out, size);
}

void kft_demangle_params(const char *demangled, char *out, size_t size)
{
	size_t name_at, at = params_at(demangled, &name_at);
	const char *clone = strstr(demangled + at, " [clone ");

	copy_no_blanks(demangled + at, clone ? (size_t)(clone - demangled) - at : strlen(demangled + at),
		       out, size);
}

bool kft_demangled_matches(const char *demangled, const char *word)
{
	char buf[1024], want[1024];

	copy_no_blanks(word, strlen(word), want, sizeof(want));
	if (strchr(want, '(')) {
		size_t name_at, n = strlen(want);

		const char *clone = strstr(demangled, " [clone ");	/* gcc's .isra.0 and such */

		params_at(demangled, &name_at);
		copy_no_blanks(demangled + name_at,
			       clone ? (size_t)(clone - demangled) - name_at : strlen(demangled + name_at),
			       buf, sizeof(buf));
		/* "bar(int)" names "bar(int) const" too, unless it says more */
		return !strncmp(buf, want, n) &&
		       (!buf[n] || (want[n - 1] == ')' && strspn(buf + n, "abcdefghijklmnopqrstuvwxyz&") ==
								strlen(buf + n)));
	}
	kft_demangle_base(demangled, buf, sizeof(buf));
	return !strcmp(buf, want);
}

bool kft_is_cxx_name(const char *word)
{
	/* (operators: "operator new", "operator<<", "operator()") */
	bool op = !strncmp(word, "operator", 8) && !isalnum((unsigned char)word[8]) &&
		  word[8] != '_';

	return op || strstr(word, "::") || strchr(word, '(') || strchr(word, '<');
}
