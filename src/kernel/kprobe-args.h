/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The args statement on ftrace: for each function it names, a kprobe
 * event kft/args<i> fetching the arguments its spec asks for (and the
 * stack pointer, KFT's frame pointer column) and a kretprobe event
 * kft/ret<i> fetching its return value. Each value is fetched as the
 * whole register or stack word, as the runtime saves it (the views cut
 * it to its size); a string's text is fetched beside its pointer, from
 * kernel or user memory, a fault shown as such. Read back, each event's
 * values are laid out as an .args record holds them, and pairing.c joins
 * them to the function_graph call they belong to.
 */
#ifndef KFT_KPROBE_ARGS_H
#define KFT_KPROBE_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include <event-parse.h>

#include "../common/error.h"
#include "../config/config.h"
#include "../format/args-writer.h"
#include "ftrace-setup.h"
#include "journal.h"
#include "pairing.h"

/* What kprobes cannot fetch, said before anything changes: a glob (an
 * event is made a function), floating-point values (the kernel passes
 * none), enums by name and structs by value (no debug information is
 * read for the kernel). */
int kft_kargs_check(const struct kft_config *cfg, const char *origin, struct kft_error *err);

/* Make and enable the events, journaled (removed when restored). */
int kft_kargs_arm(struct kft_kernel *k, struct kft_journal *j, const struct kft_config *cfg,
		  struct kft_error *err);

struct kft_kargs_event;

/* The events' values as they are read. */
struct kft_kargs {
	const struct kft_config *cfg;
	struct kft_kargs_event *ev;	/* one per event tracefs describes */
	size_t nev;
	unsigned char *buf;		/* each event's values */
	size_t len, cap;
	bool oom;
};

/* Find the events of cfg's args statement among tep's: 0, or -1 out of
 * memory. */
int kft_kargs_init(struct kft_kargs *a, struct tep_handle *tep, const struct kft_config *cfg);

/* Whether event is one of them: then *e is a KFT_KEV_ARGS or
 * KFT_KEV_RETVAL event whose extra locates its values (a->oom set when
 * they could not be kept). */
bool kft_kargs_event(struct kft_kargs *a, struct tep_event *event, struct tep_record *rec,
		     struct kft_kev *e);

/* The values kept at off (an event's extra), and its stack pointer. */
struct kft_argvals kft_kargs_values(const struct kft_kargs *a, uint64_t off, uint64_t *sp);

void kft_kargs_free(struct kft_kargs *a);

#endif
