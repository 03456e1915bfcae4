/* SPDX-License-Identifier: GPL-2.0-only */
/* A string-keyed hash map to uint32_t values (open addressing). */
#ifndef KFT_STRMAP_H
#define KFT_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kft_strmap {
	char **keys;
	uint32_t *values;
	size_t cap, len;
};

/* The value for key, or false. */
bool kft_strmap_get(const struct kft_strmap *m, const char *key, uint32_t *value);
/* Add or replace; the key is copied. Returns -1 when out of memory. */
int kft_strmap_put(struct kft_strmap *m, const char *key, uint32_t value);
void kft_strmap_free(struct kft_strmap *m);

#endif
