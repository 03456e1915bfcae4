// SPDX-License-Identifier: GPL-2.0-only
/*
 * kft kernel's steps on kft.ko, when it is loaded: the config and the
 * commands go to /proc/kft, the status and the data come from /proc/kft
 * and /proc/kft_data, the data named through /proc/kallsyms the way kft
 * kernel data names what ftrace gave.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../symbols/rewrite.h"
#include "module.h"

#define PROC_CTL "/proc/kft"
#define PROC_DATA "/proc/kft_data"

bool kft_kmod_loaded(void)
{
	return !access(PROC_CTL, F_OK);
}

/* The kernel log from now on: kft.ko says there why it refused a write. */
static int kmsg_from_now(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* kft.ko's records since kmsg_from_now(), each "prio,seq,time,flags;text",
 * added to msg, a line each */
static void kmsg_tell(int fd, char *msg, size_t size)
{
	char rec[2048];
	ssize_t n;

	while (fd >= 0 && (n = read(fd, rec, sizeof(rec) - 1)) > 0) {
		char *text = memchr(rec, ';', (size_t)n);
		size_t len = strlen(msg);

		rec[n] = '\0';
		if (text && !strncmp(text + 1, "kft: ", 5) && len < size)
			snprintf(msg + len, size - len, "\n  %.*s", (int)strcspn(text + 1, "\n"),
				 text + 1);
	}
}

/* One write, as the module takes a config or a command. */
int kft_kmod_send(const char *text, const char *what, struct kft_error *err)
{
	int fd = open(PROC_CTL, O_WRONLY | O_CLOEXEC), kmsg, e = 0;

	if (fd < 0)
		return kft_error_set(err, "kernel: %s: %s", PROC_CTL, strerror(errno));
	kmsg = kmsg_from_now();
	if (write(fd, text, strlen(text)) < 0) {
		e = errno;
		kft_error_set(err, "kernel: kft.ko refused %s: %s%s", what, strerror(e),
			      kmsg < 0 ? " (the kernel log says why: dmesg | grep kft)"
				       : ", saying:");
		kmsg_tell(kmsg, err->msg, sizeof(err->msg));
	}
	close(fd);
	if (kmsg >= 0)
		close(kmsg);
	return e ? -1 : 0;
}

/* The module's file, through names if there are any. */
static int copy(FILE *out, const char *path, const struct kft_symmap *names,
		struct kft_error *err)
{
	FILE *f = fopen(path, "re");
	int ret;

	if (!f)
		return kft_error_set(err, "kernel: %s: %s", path, strerror(errno));
	ret = kft_addr2sym_stream(out, &(struct kft_addr2sym){ .map = names }, f);
	fclose(f);
	return ret ? kft_error_set(err, "kernel: %s: read error", path) : 0;
}

int kft_kmod_status(FILE *out, struct kft_error *err)
{
	fprintf(out, "backend: kft.ko (%s, %s)\n", PROC_CTL, PROC_DATA);
	return copy(out, PROC_CTL, NULL, err);
}

int kft_kmod_data(FILE *out, struct kft_error *err)
{
	struct kft_symmap names;
	int ret;

	if (kft_symmap_load(&names, "/proc/kallsyms", err))
		return -1;
	ret = copy(out, PROC_DATA, &names, err);
	kft_symmap_free(&names);
	return ret;
}
