// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calltree.h"

void kft_calltree_free(struct kft_calltree *t)
{
	for (size_t i = 0; i < t->nfuncs; i++) {
		free(t->funcs[i].name);
		free(t->funcs[i].base_name);
	}
	for (size_t i = 0; i < t->nstrings; i++)
		free(t->strings[i]);
	free(t->funcs);
	free(t->strings);
	kft_switches_free(&t->switches);
	memset(t, 0, sizeof(*t));
}
