/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * C++ names, through the C++ runtime's own demangler (__cxa_demangle,
 * from the libstdc++ the program already has, or loaded for the tools).
 * Where there is none, names stay as they are.
 */
#ifndef KFT_DEMANGLE_H
#define KFT_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

/* The demangled name ("ns::Foo::bar(int) const"), malloc'd; NULL if
 * name is not a mangled C++ name or no demangler is at hand. */
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
