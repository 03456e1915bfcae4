// SPDX-License-Identifier: GPL-2.0-only
/* kft's config parser, the one kft record and kft config use, in the kernel. */
#include "kft-libc.h"
#include "config/config.c"
#include "common/error.c"
