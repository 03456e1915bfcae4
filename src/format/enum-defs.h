/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The trace directory's enums file: the enumerators of each enum type an
 * args spec shows by name (/e:TYPE), as kft record found them in the
 * program's debug information. Text: a line "enum TYPE", then a line
 * "VALUE NAME" for each enumerator, then a blank line.
 */
#ifndef KFT_ENUM_DEFS_H
#define KFT_ENUM_DEFS_H

#include <stddef.h>
#include <stdint.h>

struct kft_enum_def {
	const char *type, *name;	/* in text */
	int64_t value;
};

struct kft_enum_defs {
	struct kft_enum_def *v;		/* by type, then value */
	size_t n;
	char *text;
};

/* text (malloc'ed: d owns it) into d: 0, -1 out of memory. Lines it
 * cannot read are passed over. */
int kft_enum_defs_parse(struct kft_enum_defs *d, char *text);
/* The name of value (its low bits bits) in enum type (type_len bytes),
 * or NULL. */
const char *kft_enum_defs_name(const struct kft_enum_defs *d, const char *type, size_t type_len,
			       uint64_t value, unsigned int bits);
void kft_enum_defs_free(struct kft_enum_defs *d);

#endif
