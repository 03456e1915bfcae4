/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Errors as values: library code fills a struct kft_error and returns -1
 * (or NULL); only the command line prints it.
 */
#ifndef KFT_ERROR_H
#define KFT_ERROR_H

struct kft_error {
	char msg[512];
};

/* Format a message into err (NULL-safe). Always returns -1, so callers can
 * write "return kft_error_set(err, ...);". */
int kft_error_set(struct kft_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
