/* SPDX-License-Identifier: GPL-2.0-only */
/* Lines of kd's reports: usec as kd rounded them, lines built piece by
 * piece and printed without trailing blanks. */
#ifndef KFT_VIEW_KD_LINES_H
#define KFT_VIEW_KD_LINES_H

#include <stdint.h>
#include <stdio.h>

struct kft_linebuf {
	char *s;
	size_t len, cap;
};

/* usec, rounded down as kd's integer arithmetic did */
long long kft_kd_us(int64_t ns);
/* Append to b (b->s is NULL after running out of memory). */
void kft_lb_add(struct kft_linebuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print one line with trailing blanks cut. */
void kft_kd_put_line(FILE *out, char *line);

#endif
