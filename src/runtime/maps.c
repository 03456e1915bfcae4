// SPDX-License-Identifier: LGPL-2.1
/*
 * Appends a snapshot of /proc/self/maps to maps-<session>, so that
 * addresses can be turned into names after the process is gone. Every
 * snapshot is kept: a library opened with dlopen and closed again is in
 * the one taken when it was opened. Each starts with a line
 * "# kft-maps NS" (NS the trace's clock), "# kft-maps NS close" for the
 * one taken just before a dlclose: a library opened later may take the
 * closed one's addresses, and the reader names each call by the maps in
 * force when it ran. One write with O_APPEND per snapshot, so that
 * processes sharing the file never interleave lines.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "runtime.h"

KFT_NOTRACE void kft_save_maps(bool closing)
{
	size_t cap = 65536, len;
	char name[64], *buf = malloc(cap);
	ssize_t n;
	int in, out;

	if (!buf)
		return;
	len = (size_t)snprintf(buf, cap, "# kft-maps %" PRIu64 "%s\n", kft_now(),
			       closing ? " close" : "");
	in = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (in < 0)
		goto out;
	for (;;) {
		if (len == cap) {
			char *bigger = realloc(buf, cap *= 2);

			if (!bigger)
				break;
			buf = bigger;
		}
		n = read(in, buf + len, cap - len);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(in);
	snprintf(name, sizeof(name), "maps-%u", kft_rt.session);
	out = openat(kft_rt.dirfd, name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (out >= 0) {
		if (write(out, buf, len) != (ssize_t)len) {
			/* a short snapshot only costs names; nothing to do here */
		}
		close(out);
	}
out:
	free(buf);
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
		kft_save_maps(false);
		kft_resolve_config();
		kft_patch_all();
		t->busy = 0;
	}
	return handle;
}

/* A library may go: its map is saved while it is still there. */
KFT_EXPORT KFT_NOTRACE int dlclose(void *handle)
{
	static int (*real_dlclose)(void *);
	struct kft_tls *t = &kft_tls;

	if (!real_dlclose)
		real_dlclose = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");
	if (!real_dlclose)
		return -1;
	if (kft_rt.ready == 1 && !t->busy) {
		t->busy = 1;
		kft_save_maps(true);
		t->busy = 0;
	}
	return real_dlclose(handle);
}
