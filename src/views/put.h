/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Lines built by hand in a buffer: printf was most of the time of a long
 * log. Each writes at p and returns the end; the caller sizes the buffer.
 */
#ifndef KFT_VIEWS_PUT_H
#define KFT_VIEWS_PUT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* v right-aligned in width w (wider if it needs). */
static inline char *kft_put_int(char *p, int64_t v, int w)
{
	char digits[24];
	int n = 0;
	bool neg = v < 0;
	uint64_t u = neg ? (uint64_t)-(v + 1) + 1 : (uint64_t)v;

	do
		digits[n++] = (char)('0' + u % 10);
	while ((u /= 10));
	if (neg)
		digits[n++] = '-';
	for (int pad = w - n; pad > 0; pad--)
		*p++ = ' ';
	while (n)
		*p++ = digits[--n];
	return p;
}

/* v's last digits digits, zeros in front ("007"). */
static inline char *kft_put_zero_padded(char *p, uint64_t v, int digits)
{
	for (int i = digits - 1; i >= 0; i--, v /= 10)
		p[i] = (char)('0' + v % 10);
	return p + digits;
}

/* s, then blanks up to width w. */
static inline char *kft_put_str(char *p, const char *s, int w)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	p += n;
	for (; (int)n < w; n++)
		*p++ = ' ';
	return p;
}

/* n blanks. */
static inline char *kft_put_blanks(char *p, int n)
{
	if (n > 0) {
		memset(p, ' ', (size_t)n);
		p += n;
	}
	return p;
}

#endif
