// SPDX-License-Identifier: LGPL-2.1
#ifdef __KERNEL__	/* kft.ko builds it too */
#include <linux/kernel.h>
#include <linux/stdarg.h>
#else
#include <stdarg.h>
#include <stdio.h>
#endif

#include "error.h"

int kft_error_set(struct kft_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}
