// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kd-lines.h"

long long kft_kd_us(int64_t ns)
{
	return ns >= 0 ? ns / 1000 : -((-ns + 999) / 1000);
}

void kft_kd_put_line(FILE *out, char *line)
{
	size_t n = strlen(line);

	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(out, "%s\n", line);
}

void kft_lb_add(struct kft_linebuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		b->cap = (b->cap + (size_t)n + 256) * 2;
		b->s = realloc(b->s, b->cap);	/* checked by the caller via lb_ok */
		if (!b->s) {
			b->len = b->cap = 0;
			return;
		}
	}
}
