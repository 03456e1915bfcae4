/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The floor: -finstrument-functions hooks that read the TSC at entry and
 * exit, keep the entry time on a thread-local stack and compare the
 * duration with a threshold, and write nothing. No tracer that times
 * every call with the TSC can cost less; bench/run.sh preloads this into
 * the -finstrument-functions builds to show how close kft comes.
 */
#include <stdint.h>
#include <x86intrin.h>

#define CAP 4096
#define NOTRACE __attribute__((no_instrument_function, visibility("default")))

static __thread uint64_t entries[CAP] __attribute__((tls_model("initial-exec")));
static __thread unsigned int depth __attribute__((tls_model("initial-exec")));
static __thread uint64_t kept __attribute__((tls_model("initial-exec")));

NOTRACE void __cyg_profile_func_enter(void *fn, void *call_site)
{
	(void)fn;
	(void)call_site;
	if (depth < CAP)
		entries[depth] = __rdtsc();
	depth++;
}

NOTRACE void __cyg_profile_func_exit(void *fn, void *call_site)
{
	uint64_t now = __rdtsc();

	(void)fn;
	(void)call_site;
	depth--;
	if (depth < CAP && now - entries[depth] > (1ULL << 40))
		kept++;
}
