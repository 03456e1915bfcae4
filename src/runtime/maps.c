// SPDX-License-Identifier: LGPL-2.1
/*
 * Saves /proc/self/maps as maps-<session> so that addresses can be turned
 * into names after the process is gone. Written to a temporary name and
 * renamed, so a reader never sees half a file.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "runtime.h"

KFT_NOTRACE void kft_save_maps(void)
{
	char name[64], tmp[80], buf[8192];
	int in, out;
	ssize_t n;

	snprintf(name, sizeof(name), "maps-%u", kft_rt.session);
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", name, getpid());
	in = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return;
	out = openat(kft_rt.dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0) {
		close(in);
		return;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	close(in);
	close(out);
	renameat(kft_rt.dirfd, tmp, kft_rt.dirfd, name);
}

/* A library loaded at run time: save the new map, resolve config names. */
KFT_EXPORT KFT_NOTRACE void *dlopen(const char *file, int mode)
{
	static void *(*real_dlopen)(const char *, int);
	struct kft_tls *t = &kft_tls;
	void *handle;

	if (!real_dlopen)
		real_dlopen = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
	if (!real_dlopen)
		return NULL;
	handle = real_dlopen(file, mode);
	if (handle && kft_rt.ready == 1 && !t->busy) {
		t->busy = 1;
		kft_save_maps();
		kft_resolve_config();
		t->busy = 0;
	}
	return handle;
}
