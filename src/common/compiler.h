/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The attributes kft's code spells once: what the runtime exports or
 * hides, what must never be instrumented (the hooks and everything they
 * call: a hook calling a traced function would trace itself), and branch
 * hints.
 */
#ifndef KFT_COMPILER_H
#define KFT_COMPILER_H

#define KFT_HIDDEN __attribute__((visibility("hidden")))
#define KFT_EXPORT __attribute__((visibility("default")))
#define KFT_NOTRACE __attribute__((no_instrument_function))
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

#endif
