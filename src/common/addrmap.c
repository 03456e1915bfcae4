// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "addrmap.h"

static size_t hash(uint32_t session, uint64_t addr, size_t cap)
{
	uint64_t x = addr ^ ((uint64_t)session << 48);

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x & (cap - 1);
}

static struct kft_addrmap_slot *find(struct kft_addrmap_slot *tab, size_t cap, uint32_t session,
				     uint64_t addr)
{
	size_t i = hash(session, addr, cap);

	while (tab[i].session && (tab[i].session != session || tab[i].addr != addr))
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

uint32_t *kft_addrmap_slot(struct kft_addrmap *m, uint32_t session, uint64_t addr)
{
	struct kft_addrmap_slot *s;

	session += 1;
	if ((m->len + 1) * 2 > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 1024;
		struct kft_addrmap_slot *tab = calloc(cap, sizeof(*tab));

		if (!tab)
			return NULL;
		for (size_t i = 0; i < m->cap; i++)
			if (m->tab[i].session)
				*find(tab, cap, m->tab[i].session, m->tab[i].addr) = m->tab[i];
		free(m->tab);
		m->tab = tab;
		m->cap = cap;
	}
	s = find(m->tab, m->cap, session, addr);
	if (!s->session) {
		s->session = session;
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
