// SPDX-License-Identifier: LGPL-2.1
/*
 * The environment, also before the C library has set it up: a program's
 * .preinit_array functions run before it does (environ is still NULL
 * then), and their instrumented calls are the first kft sees, which set
 * up the runtime. The kernel's copy, /proc/self/environ, is read then.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime.h"

extern char **environ;

/* /proc/self/environ, read once: NUL-separated "NAME=value" */
static char *early;
static size_t early_len;

static KFT_NOTRACE void read_early(void)
{
	size_t cap = 4096;
	ssize_t n;
	int fd = open("/proc/self/environ", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	early = malloc(cap);
	while (early && (n = read(fd, early + early_len, cap - early_len)) > 0) {
		early_len += (size_t)n;
		if (early_len == cap) {
			char *bigger = realloc(early, cap *= 2);

			if (!bigger) {
				free(early);
				early_len = 0;
			}
			early = bigger;
		}
	}
	close(fd);
}

KFT_NOTRACE const char *kft_env(const char *name)
{
	size_t len = strlen(name);

	if (environ)
		return getenv(name);
	if (!early)
		read_early();
	for (size_t at = 0; early && at < early_len; at += strlen(early + at) + 1)
		if (!strncmp(early + at, name, len) && early[at + len] == '=')
			return early + at + len + 1;
	return NULL;
}
