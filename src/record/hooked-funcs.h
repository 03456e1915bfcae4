/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which functions of a file a run needs hooked, when it needs only some:
 * a config whose funclist filter logs only the functions it names needs
 * their hooks, and those of its triggers' functions, and no other's.
 * Entries patched at load (patch-plan.h) are patched for those alone, so
 * that a narrow filter costs nothing elsewhere.
 */
#ifndef KFT_RECORD_HOOKED_FUNCS_H
#define KFT_RECORD_HOOKED_FUNCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/error.h"
#include "../config/config.h"

struct kft_elf;

/* What a run needs hooked: a config and kft record --latency's function
 * (or NULL). */
struct kft_hook_needs {
	const struct kft_config *cfg;
	const char *latency;
};

struct kft_hooked {
	bool all;		/* every function (no funclist, or one that needs all) */
	uint64_t *addrs;	/* else these, sorted (link-time addresses) */
	size_t n;
};

/* The functions of elf that needs asks hooks for. 0, or -1 with err. */
int kft_hooked_functions(const struct kft_elf *elf, const struct kft_hook_needs *needs,
			 struct kft_hooked *out, struct kft_error *err);
bool kft_hooked_has(const struct kft_hooked *h, uint64_t addr);
void kft_hooked_free(struct kft_hooked *h);

#endif
