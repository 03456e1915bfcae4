// SPDX-License-Identifier: GPL-2.0-only
/* An address, or a call site, as every view and the recorder name it. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "symbolizer.h"

static const char *text(struct kft_symbolizer *sz, uint64_t image, uint64_t addr, bool ret,
			bool with_offset, char *buf, size_t size)
{
	struct kft_symbol sym = { 0 };

	if (sz && (ret ? kft_symbolize_return : kft_symbolize)(sz, image, addr, &sym) && sym.name) {
		/* once or twice a call: no printf */
		size_t n = strlen(sym.name), m;
		char off[24], *o = off + sizeof(off);

		*--o = '\0';
		if (with_offset && sym.offset) {
			for (uint64_t v = sym.offset; v; v >>= 4)
				*--o = "0123456789abcdef"[v & 15];
			*--o = 'x';
			*--o = '0';
			*--o = '+';
		}
		if (!size)
			return buf;
		n = n < size ? n : size - 1;
		memcpy(buf, sym.name, n);
		m = strlen(o);
		m = m < size - n ? m : size - n - 1;
		memcpy(buf + n, o, m);
		buf[n + m] = '\0';
	} else if (sym.module && with_offset) {
		/* a function without a symbol (stripped library): module+offset */
		const char *base = strrchr(sym.module, '/');

		snprintf(buf, size, "%s+0x%" PRIx64, base ? base + 1 : sym.module, sym.offset);
	} else {
		snprintf(buf, size, "0x%016" PRIx64, addr);
	}
	return buf;
}

const char *kft_symbol_text(struct kft_symbolizer *sz, uint64_t image, uint64_t addr,
			    bool with_offset, char *buf, size_t size)
{
	return text(sz, image, addr, false, with_offset, buf, size);
}

const char *kft_caller_text(struct kft_symbolizer *sz, uint64_t image, uint64_t ret,
			    bool with_offset, char *buf, size_t size)
{
	return text(sz, image, ret, true, with_offset, buf, size);
}
