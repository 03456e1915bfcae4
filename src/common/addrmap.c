// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "addrmap.h"

static size_t hash(uint64_t image, uint64_t addr, size_t cap)
{
	uint64_t x = addr ^ (image << 48) ^ (image >> 16);

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x & (cap - 1);
}

static struct kft_addrmap_slot *find(struct kft_addrmap_slot *tab, size_t cap, uint64_t image,
				     uint64_t addr)
{
	size_t i = hash(image, addr, cap);

	while (tab[i].image && (tab[i].image != image || tab[i].addr != addr))
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

uint32_t *kft_addrmap_slot(struct kft_addrmap *m, uint64_t image, uint64_t addr)
{
	struct kft_addrmap_slot *s;

	image += 1;
	if ((m->len + 1) * 2 > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 1024;
		struct kft_addrmap_slot *tab = calloc(cap, sizeof(*tab));

		if (!tab)
			return NULL;
		for (size_t i = 0; i < m->cap; i++)
			if (m->tab[i].image)
				*find(tab, cap, m->tab[i].image, m->tab[i].addr) = m->tab[i];
		free(m->tab);
		m->tab = tab;
		m->cap = cap;
	}
	s = find(m->tab, m->cap, image, addr);
	if (!s->image) {
		s->image = image;
		s->addr = addr;
		s->value = KFT_ADDRMAP_NONE;
		m->len++;
	}
	return &s->value;
}

void kft_addrmap_free(struct kft_addrmap *m)
{
	free(m->tab);
	memset(m, 0, sizeof(*m));
}
