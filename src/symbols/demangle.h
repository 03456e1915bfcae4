/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Mangled names: in the tools, C++ and Rust's (legacy and v0) through
 * libiberty's demangler; in the runtime (the config's C++ names matched
 * as a library loads), C++'s through the C++ runtime's own
 * (__cxa_demangle, from the libstdc++ the program already has). Where
 * there is none, names stay as they are.
 */
#ifndef KFT_DEMANGLE_H
#define KFT_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

/* Whether name is one kft_demangle reads (_Z..., and in the tools _R...). */
bool kft_is_mangled(const char *name);

/* The demangled name ("ns::Foo::bar(int) const", "m::fib"), malloc'd;
 * NULL if name is not a mangled name or no demangler is at hand. */
char *kft_demangle(const char *name);

/* The name as views show it: qualified, without parameters or blanks
 * ("ns::Foo::bar", "ns::f<int>", "ns::Foo::operator()"), into out. */
void kft_demangle_base(const char *demangled, char *out, size_t size);

/* Its parameters and qualifiers, without blanks ("(int)const"), or ""
 * for a name without. */
void kft_demangle_params(const char *demangled, char *out, size_t size);

/* Whether the config's word names this symbol: "ns::Foo::bar" every
 * overload, "ns::Foo::bar(int)" one (blanks ignored). */
bool kft_demangled_matches(const char *demangled, const char *word);

/* Whether a config word is written as a C++ name. */
bool kft_is_cxx_name(const char *word);

#endif
