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
 * processes sharing the file never interleave lines. After the maps, a
 * line "# build-id ADDR HEX" for each loaded object that has one (ADDR
 * the note's address): the reader tells by it whether the file it names
 * the calls by is the build that ran (a library rebuilt or replaced while
 * the program ran is not). A snapshot whose code mappings and build-ids
 * are those of the last one is not written: a fork child, whose map is
 * its parent's (its thread files say so), writes none until its map
 * changes.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "../format/trace-files.h"
#include "runtime.h"

/* The last snapshot this image wrote, or in a fork child its parent's */
static char *last;
static size_t last_len;
static pthread_mutex_t last_lock = PTHREAD_MUTEX_INITIALIZER;

#define BUILD_ID_LINE "# build-id "

/* The next line of buf[*at, len) that maps code or gives a build-id, and
 * its length n. */
static KFT_NOTRACE const char *next_code_line(const char *buf, size_t len, size_t *at, size_t *n)
{
	while (*at < len) {
		const char *line = buf + *at, *nl = memchr(line, '\n', len - *at);
		size_t l = nl ? (size_t)(nl - line) + 1 : len - *at;
		const char *perms = memchr(line, ' ', l);

		*at += l;
		/* "start-end r-xp ..." */
		if ((line[0] != '#' && perms && (size_t)(perms - line) + 4 < l && perms[3] == 'x') ||
		    (l > strlen(BUILD_ID_LINE) && !memcmp(line, BUILD_ID_LINE, strlen(BUILD_ID_LINE)))) {
			*n = l;
			return line;
		}
	}
	return NULL;
}

/* Whether two snapshots map the same code at the same places. */
static KFT_NOTRACE bool same_code(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t i = 0, j = 0, n = 0, m = 0;

	for (;;) {
		const char *x = next_code_line(a, alen, &i, &n);
		const char *y = next_code_line(b, blen, &j, &m);

		if (!x || !y)
			return !x && !y;
		if (n != m || memcmp(x, y, n))
			return false;
	}
}

/* /proc/self/maps appended to buf[*len, *cap), which grows; false if it
 * could not be opened. */
static KFT_NOTRACE bool read_self_maps(char **buf, size_t *len, size_t *cap)
{
	int in = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (in < 0)
		return false;
	for (;;) {
		if (*len == *cap) {
			char *bigger = realloc(*buf, *cap * 2);

			if (!bigger)
				break;
			*buf = bigger;
			*cap *= 2;
		}
		n = read(in, *buf + *len, *cap - *len);
		if (n <= 0)
			break;
		*len += (size_t)n;
	}
	close(in);
	return true;
}

/* The mapping of /proc/self/maps that holds addr: its end into *end,
 * and its file, if it has one and out holds it, into out (else out is
 * ""). False if no mapping holds it. */
static KFT_NOTRACE bool mapping_at(uint64_t addr, uint64_t *end, char *out, size_t size)
{
	size_t cap = 65536, len = 0, at = 0;
	char *buf = malloc(cap);
	bool found = false;

	if (size)
		*out = '\0';
	if (!buf || !read_self_maps(&buf, &len, &cap)) {
		free(buf);
		return false;
	}
	while (at < len && !found) {
		char *line = buf + at, *nl = memchr(line, '\n', len - at), *path;
		uint64_t start;

		if (!nl)
			break;
		*nl = '\0';
		at += (size_t)(nl - line) + 1;
		/* "start-end perms offset dev inode path" */
		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &start, end) != 2 || addr < start ||
		    addr >= *end)
			continue;
		found = true;
		path = strchr(line, '/');
		if (path && strlen(path) < size)
			strcpy(out, path);
	}
	free(buf);
	return found;
}

KFT_NOTRACE uintptr_t kft_maps_end_of(uintptr_t addr)
{
	uint64_t end;

	return mapping_at(addr, &end, NULL, 0) ? (uintptr_t)end : 0;
}

/*
 * The file of a loaded object, by its real path: the dynamic loader names
 * one found through a relative LD_LIBRARY_PATH or dlopen("./libx.so") as
 * it was asked for, which says nothing once the working directory
 * changes, so the file is the one the kernel mapped at the object's first
 * segment. NULL for the vDSO, which has no file.
 */
KFT_NOTRACE const char *kft_object_path(const struct dl_phdr_info *info, char *out, size_t size)
{
	uint64_t addr = 0, end;

	if (!info->dlpi_name || !*info->dlpi_name)
		return "/proc/self/exe";
	if (info->dlpi_name[0] == '/')
		return info->dlpi_name;
	for (size_t i = 0; i < info->dlpi_phnum && !addr; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD)
			addr = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
	if (!addr || addr == getauxval(AT_SYSINFO_EHDR))
		return NULL;	/* (without reading the maps) */
	return mapping_at(addr, &end, out, size) && *out ? out : NULL;
}

/* A snapshot being made: its text so far. */
struct snapshot {
	char *buf;
	size_t len, cap;
};

/* The object's NT_GNU_BUILD_ID note, from its loaded notes, as a
 * BUILD_ID_LINE appended to the snapshot at arg. */
static KFT_NOTRACE int add_build_id(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct snapshot *sn = arg;

	(void)size;
	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
		size_t align = ph->p_align == 8 ? 8 : 4;

		if (ph->p_type != PT_NOTE)
			continue;
		while (end - p >= (ptrdiff_t)sizeof(ElfW(Nhdr))) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
			const unsigned char *desc = (const unsigned char *)p + sizeof(*nh) +
						    ((nh->n_namesz + align - 1) & ~(align - 1));
			size_t next = (size_t)(desc - (const unsigned char *)p) +
				      ((nh->n_descsz + align - 1) & ~(align - 1));

			if (next > (size_t)(end - p))
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && !memcmp(nh + 1, "GNU", 4) &&
			    nh->n_descsz && nh->n_descsz <= 64) {
				if (sn->cap - sn->len < 256) {
					char *bigger = realloc(sn->buf, sn->cap * 2);

					if (!bigger)
						return 1;
					sn->buf = bigger;
					sn->cap *= 2;
				}
				sn->len += (size_t)snprintf(sn->buf + sn->len, sn->cap - sn->len,
							    BUILD_ID_LINE "%" PRIxPTR " ", (uintptr_t)desc);
				for (size_t k = 0; k < nh->n_descsz; k++)
					sn->len += (size_t)snprintf(sn->buf + sn->len, 3, "%02x", desc[k]);
				sn->buf[sn->len++] = '\n';
				return 0;
			}
			p += next;
		}
	}
	return 0;
}

/* The loaded objects' build-ids appended to buf[*len, *cap), which grows. */
static KFT_NOTRACE void add_build_ids(char **buf, size_t *len, size_t *cap)
{
	struct snapshot sn = { *buf, *len, *cap };

	dl_iterate_phdr(add_build_id, &sn);
	*buf = sn.buf;
	*len = sn.len;
	*cap = sn.cap;
}

/*
 * The vDSO, an ELF image the kernel maps into every process (time,
 * gettimeofday, clock_gettime called through it never enter the C
 * library), has no file the reader could name its functions from: its
 * image is copied into the trace once (KFT_VDSO_FILE), the whole of it
 * as mapped, section headers included.
 */
static KFT_NOTRACE void save_vdso(void)
{
	static bool saved;
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Phdr) *ph;
	size_t size;
	int fd;

	if (saved || !eh || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return;
	saved = true;
	size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	ph = (const ElfW(Phdr) *)((const char *)eh + eh->e_phoff);
	for (size_t i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset + ph[i].p_filesz > size)
			size = ph[i].p_offset + ph[i].p_filesz;
	/* (one process writes it: the others find it there) */
	fd = openat(kft_dir(), KFT_VDSO_FILE, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		    0600);
	if (fd < 0)
		return;
	if (write(fd, eh, size) != (ssize_t)size)
		ftruncate(fd, 0);	/* (a part is worth nothing: no names) */
	close(fd);
}

KFT_NOTRACE void kft_save_maps(bool closing)
{
	size_t cap = 65536, len;
	char name[64], *buf = malloc(cap);
	bool locked = false;
	int out;

	if (!buf)
		return;
	len = (size_t)snprintf(buf, cap, "# kft-maps %" PRIu64 "%s\n", kft_now(),
			       closing ? " close" : "");
	if (!read_self_maps(&buf, &len, &cap))
		goto out;
	add_build_ids(&buf, &len, &cap);
	save_vdso();
	/* another thread saving now (or, in a fork child, at the fork): save
	 * without comparing */
	locked = !pthread_mutex_trylock(&last_lock);
	if (locked && !closing && last && same_code(last, last_len, buf, len))
		goto out;
	snprintf(name, sizeof(name), KFT_MAPS_PREFIX "%u", kft_rt.session);
	out = openat(kft_dir(), name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (out >= 0) {
		if (write(out, buf, len) != (ssize_t)len) {
			/* a short snapshot only costs names; nothing to do here */
		}
		close(out);
	}
	if (locked) {
		char *kept = realloc(buf, len);

		free(last);
		last = kept ? kept : buf;
		last_len = len;
		buf = NULL;
	}
out:
	if (locked)
		pthread_mutex_unlock(&last_lock);
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
		kft_dynamic_patch_opened();
		if (kft_rt.ctl->mode & KFT_MODE_LIBCALLS)
			kft_plt_hook_all();
		t->busy = 0;
	}
	return handle;
}

/* A library may go: its map is saved while it is still there. */
KFT_EXPORT KFT_NOTRACE int dlclose(void *handle)
{
	static int (*real_dlclose)(void *);
	struct kft_tls *t = &kft_tls;
	int ret;

	if (!real_dlclose)
		real_dlclose = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");
	if (!real_dlclose)
		return -1;
	if (kft_rt.ready == 1 && !t->busy) {
		t->busy = 1;
		kft_save_maps(true);
		t->busy = 0;
	}
	ret = real_dlclose(handle);
	if (kft_rt.ready == 1 && !t->busy && (kft_rt.ctl->mode & KFT_MODE_LIBCALLS)) {
		t->busy = 1;
		kft_plt_forget_closed();
		t->busy = 0;
	}
	return ret;
}
