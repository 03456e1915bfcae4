// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "enum-defs.h"

/* value cut to its low bits, sign-extended: as an enum of that size holds it */
static int64_t as_bits(uint64_t value, unsigned int bits)
{
	if (!bits || bits >= 64)
		return (int64_t)value;
	value &= (1ULL << bits) - 1;
	if (value >> (bits - 1))
		value |= ~0ULL << bits;
	return (int64_t)value;
}

static int by_type_value(const void *a, const void *b)
{
	const struct kft_enum_def *x = a, *y = b;
	int c = strcmp(x->type, y->type);

	if (c)
		return c;
	return (x->value > y->value) - (x->value < y->value);
}

int kft_enum_defs_parse(struct kft_enum_defs *d, char *text)
{
	const char *type = NULL;
	size_t cap = 0;

	memset(d, 0, sizeof(*d));
	d->text = text;
	for (char *line = text, *next; line && *line; line = next) {
		char *end, *name;
		int64_t value;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strncmp(line, "enum ", 5)) {
			type = line + 5;
			continue;
		}
		if (!*line) {
			type = NULL;
			continue;
		}
		value = strtoll(line, &end, 10);
		if (!type || end == line || *end != ' ' || !*(name = end + 1))
			continue;
		if (d->n == cap) {
			struct kft_enum_def *more = realloc(d->v, (cap ? 2 * cap : 64) * sizeof(*more));

			if (!more)
				return -1;
			d->v = more;
			cap = cap ? 2 * cap : 64;
		}
		d->v[d->n++] = (struct kft_enum_def){ type, name, value };
	}
	if (d->n > 1)
		qsort(d->v, d->n, sizeof(*d->v), by_type_value);
	return 0;
}

const char *kft_enum_defs_name(const struct kft_enum_defs *d, const char *type, size_t type_len,
			       uint64_t value, unsigned int bits)
{
	int64_t want = as_bits(value, bits);
	size_t lo = 0, hi = d ? d->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct kft_enum_def *e = &d->v[mid];
		int c = strncmp(e->type, type, type_len);

		if (!c && e->type[type_len])
			c = 1;	/* longer: after */
		if (!c)
			c = (e->value > want) - (e->value < want);
		if (!c)
			return e->name;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void kft_enum_defs_free(struct kft_enum_defs *d)
{
	free(d->v);
	free(d->text);
	memset(d, 0, sizeof(*d));
}
