/* SPDX-License-Identifier: GPL-2.0-only */
/* A library (and, built with -DPLUGIN, a plugin) whose functions call
 * the C library: kft record --libcalls sees those calls too. */
#include <unistd.h>

static volatile long sink;

#ifdef PLUGIN
void plugin_entry(void) { sink += getppid(); }
#else
void from_lib(void) { sink += getpid(); }
#endif
