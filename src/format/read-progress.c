// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "read-progress.h"

struct kft_read_progress *kft_read_progress_of(struct kft_read_progress_set *s, const char *name)
{
	struct kft_read_progress *bigger;

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->files[i].name, name))
			return &s->files[i];
	bigger = realloc(s->files, (s->n + 1) * sizeof(*bigger));
	if (!bigger)
		return NULL;
	s->files = bigger;
	bigger[s->n].name = strdup(name);
	bigger[s->n].next = 0;
	return bigger[s->n].name ? &bigger[s->n++] : NULL;
}

void kft_read_progress_free(struct kft_read_progress_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->files[i].name);
	free(s->files);
	s->files = NULL;
	s->n = 0;
}
