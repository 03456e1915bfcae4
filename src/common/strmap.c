// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "strmap.h"

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static size_t slot(const struct kft_strmap *m, const char *key)
{
	size_t i = (size_t)hash(key) & (m->cap - 1);

	while (m->keys[i] && strcmp(m->keys[i], key))
		i = (i + 1) & (m->cap - 1);
	return i;
}

bool kft_strmap_get(const struct kft_strmap *m, const char *key, uint32_t *value)
{
	size_t i;

	if (!m->cap)
		return false;
	i = slot(m, key);
	if (!m->keys[i])
		return false;
	*value = m->values[i];
	return true;
}

static int grow(struct kft_strmap *m)
{
	struct kft_strmap big = { 0 };

	big.cap = m->cap ? 2 * m->cap : 64;
	big.keys = calloc(big.cap, sizeof(*big.keys));
	big.values = calloc(big.cap, sizeof(*big.values));
	if (!big.keys || !big.values) {
		free(big.keys);
		free(big.values);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (m->keys[i]) {
			size_t j = slot(&big, m->keys[i]);

			big.keys[j] = m->keys[i];
			big.values[j] = m->values[i];
		}
	}
	big.len = m->len;
	free(m->keys);
	free(m->values);
	*m = big;
	return 0;
}

int kft_strmap_put(struct kft_strmap *m, const char *key, uint32_t value)
{
	size_t i;

	if ((m->len + 1) * 2 > m->cap && grow(m))
		return -1;
	i = slot(m, key);
	if (!m->keys[i]) {
		m->keys[i] = strdup(key);
		if (!m->keys[i])
			return -1;
		m->len++;
	}
	m->values[i] = value;
	return 0;
}

void kft_strmap_free(struct kft_strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->values);
	memset(m, 0, sizeof(*m));
}
