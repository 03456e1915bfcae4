// SPDX-License-Identifier: LGPL-2.1
/*
 * Arguments and return values (the config's args statement): for each
 * function it names, the hooks that see the argument registers (-pg,
 * -pg -mfentry, patched entries, library calls) save them at entry, and
 * the return trampoline the return value at exit, one record each in the
 * thread's .args file, a memory-mapped log as the thread file is: a
 * killed program leaves every record counted in its header. Only the
 * functions asked for pay: a lookup in a sorted table, a record, and for
 * a string a bounded copy that cannot fault (process_vm_readv reads our
 * own memory and says where it stops). The file's blocks are taken
 * before a record goes there (a full disk ends the saving, never the
 * program).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "events-hot.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23	/* Linux 5.14 */
#endif

#define ARGS_FIRST_SIZE (64 << 10)	/* the file's first room */
#define ARGS_MAX_SIZE (4ULL << 30)	/* and its most */
/* the largest record: a head, six values, six strings */
#define ARGS_REC_MAX (sizeof(struct kft_argrec_head) + \
		      KFT_MAX_ARGS * (sizeof(struct kft_argval) + KFT_ARGS_STR_MAX))

/* The table of functions and what to save of them, sorted by address. */
KFT_NOTRACE const struct kft_argspec *kft_args_of(uint64_t fn)
{
	const struct kft_args_fn *v = __atomic_load_n(&kft_rt.args, __ATOMIC_ACQUIRE);
	size_t lo = 0, hi = __atomic_load_n(&kft_rt.nargs, __ATOMIC_ACQUIRE);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fn < v[mid].addr)
			hi = mid;
		else if (fn > v[mid].addr)
			lo = mid + 1;
		else
			return &v[mid].spec;
	}
	return NULL;
}

/* The string v's value points to, into text (KFT_ARGS_STR_MAX bytes at
 * most, no NUL): v's state and length say what came. */
static KFT_NOTRACE void read_string(struct kft_argval *v, char *text)
{
	struct iovec local = { text, KFT_ARGS_STR_MAX },
		     remote = { (void *)(uintptr_t)v->value, KFT_ARGS_STR_MAX };
	int saved = errno;
	ssize_t n;
	char *end;

	if (!v->value) {
		v->str_state = KFT_ARGSTR_NULL;
		return;
	}
	/* (a read that crosses into an unmapped page stops at its edge; one
	 * that starts in one fails) */
	n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
	errno = saved;
	if (n <= 0) {
		v->str_state = KFT_ARGSTR_FAULT;
		return;
	}
	end = memchr(text, '\0', (size_t)n);
	v->str_state = end ? KFT_ARGSTR_READ : KFT_ARGSTR_CUT;
	v->str_len = (uint16_t)(end ? end - text : n);
}

/* The thread's file, thread-S-T-Q.args beside its thread file (flags:
 * O_CREAT to make it): a descriptor, or -1. */
static KFT_NOTRACE int open_file(const struct kft_tls *t, int flags)
{
	char name[96];

	snprintf(name, sizeof(name), "thread-%u-%u-%u.args", t->hdr->session, t->hdr->tid,
		 t->file_seq);
	return openat(kft_rt.dirfd, name, O_RDWR | O_CLOEXEC | O_NOFOLLOW | flags, 0600);
}

/* The thread's file made, size bytes mapped: 0 or -1. */
static KFT_NOTRACE int open_log(struct kft_tls *t, size_t size)
{
	struct kft_args_hdr *h;
	int fd = open_file(t, O_CREAT);

	if (fd < 0)
		return -1;
	if (kft_take_room(fd, 0, size) || ftruncate(fd, (off_t)size)) {
		close(fd);
		return -1;
	}
	h = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (h == MAP_FAILED)
		return -1;
	memcpy(h->magic, KFT_ARGS_MAGIC, sizeof(h->magic));
	h->version = KFT_ARGS_VERSION;
	t->args_hdr = h;
	t->args_map_size = size;
	return 0;
}

/* Twice the room: 0 or -1 (the records so far stay). */
static KFT_NOTRACE int grow_log(struct kft_tls *t)
{
	size_t size = 2 * t->args_map_size;
	void *map;
	int fd;

	if (size > ARGS_MAX_SIZE || (fd = open_file(t, 0)) < 0)
		return -1;
	/* (written with zeros 64 KiB at a time: the pages come into the
	 * cache here, and the records' stores find them there) */
	for (size_t off = t->args_map_size; off < size; off += 64 << 10)
		if (kft_take_room(fd, off, size - off < (64 << 10) ? size - off : 64 << 10)) {
			close(fd);
			return -1;
		}
	close(fd);
	map = mremap(t->args_hdr, t->args_map_size, size, MREMAP_MAYMOVE);
	if (map == MAP_FAILED)
		return -1;
	/* the new part's pages in one call, not a fault each as records
	 * come (an older kernel says EINVAL: they fault as they come) */
	madvise((char *)map + t->args_map_size, size - t->args_map_size, MADV_POPULATE_WRITE);
	t->args_hdr = map;
	t->args_map_size = size;
	return 0;
}

KFT_NOTRACE void kft_args_unmap(struct kft_tls *t)
{
	if (t->args_hdr)
		munmap(t->args_hdr, t->args_map_size);
	t->args_hdr = NULL;
	t->args_map_size = 0;
	t->args_full = false;
}

/* Room for the largest record at the end of the thread's file: where it
 * goes, or NULL (no room could be had: nothing is saved). *made says
 * whether the file was made or grown for it (a system call or more). */
static KFT_NOTRACE unsigned char *next_record(struct kft_tls *t, bool *made)
{
	int saved = errno;
	bool ok;

	*made = false;
	if (t->args_full) {
		if (t->args_hdr)
			t->args_hdr->lost++;
		return NULL;
	}
	if (t->args_hdr && KFT_ARGS_OFF + t->args_hdr->end + ARGS_REC_MAX <= t->args_map_size)
		return (unsigned char *)t->args_hdr + KFT_ARGS_OFF + t->args_hdr->end;
	*made = true;
	ok = t->args_hdr ? !grow_log(t) : !open_log(t, ARGS_FIRST_SIZE);
	errno = saved;
	if (!ok) {
		t->args_full = true;	/* no more tries in this thread */
		if (t->args_hdr)
			t->args_hdr->lost++;
		return NULL;
	}
	return (unsigned char *)t->args_hdr + KFT_ARGS_OFF + t->args_hdr->end;
}

/* At rec, a record of the call of frame f: kind, and n values, value[i]
 * shown as item[i] says. */
static KFT_NOTRACE void put(struct kft_tls *t, unsigned char *rec, const struct kft_frame *f,
			    int kind, const struct kft_argitem *const *item, const uint64_t *value,
			    int n)
{
	struct kft_argrec_head h = { .entry_ns = f->entry_ns, .func = f->func, .sp = f->sp,
				     .tid = t->hdr->tid, .session = kft_rt.session,
				     .kind = (uint8_t)kind };
	unsigned char *p = rec + sizeof(h);

	for (int i = 0; i < n; i++) {
		struct kft_argval v = { .value = value[i], .slot = item[i]->slot,
					.fmt = item[i]->fmt, .bits = item[i]->bits };

		if (v.fmt == KFT_ARG_STR) {
			read_string(&v, (char *)p + sizeof(v));
		} else if (v.fmt == KFT_ARG_ENUM) {
			/* the type's name: the views find its enumerators */
			v.str_len = (uint16_t)strnlen(item[i]->enum_type, KFT_ENUM_TYPE_MAX - 1);
			memcpy(p + sizeof(v), item[i]->enum_type, v.str_len);
		}
		memcpy(p, &v, sizeof(v));
		p += sizeof(v) + ((v.str_len + 7U) & ~7U);
		h.nvals++;
	}
	h.size = (uint16_t)(p - rec);
	memcpy(rec, &h, sizeof(h));
	barrier();	/* a reader after a crash sees whole records only */
	t->args_hdr->end += h.size;
}

KFT_NOTRACE void kft_args_entered(struct kft_tls *t, uint64_t now, uintptr_t fn,
				  const struct kft_arg_regs *regs)
{
	const struct kft_argspec *spec = kft_args_of(fn);
	uint64_t depth = t->hdr->depth, value[KFT_ARGSPEC_ITEMS];
	/* (the spec's items, not copies: one is ~44 bytes, its enum's name) */
	const struct kft_argitem *item[KFT_ARGSPEC_ITEMS];
	struct kft_frame *f;
	unsigned char *rec;
	int n = 0;
	bool made;

	if (!spec || !depth || depth > t->frames_cap)
		return;
	/* (the frame the hook opened, if it logged one: a sibling call
	 * ended the frame below it first) */
	f = &t->frames[depth - 1];
	if (f->func != fn || f->entry_ns != now || !(f->flags & KFT_FRAME_LOGGED))
		return;
	if (kft_argspec_find(spec, KFT_ARGSLOT_RETVAL))
		f->flags |= KFT_FRAME_RETVAL;	/* its end goes the whole way */
	for (unsigned int i = 0; i < spec->n; i++) {
		unsigned int slot = spec->item[i].slot;

		if (slot < KFT_MAX_ARGS)
			value[n] = regs->r[slot];
		else if (slot >= KFT_ARGSLOT_FP0 && slot < KFT_ARGSLOT_STACK0 && regs->have_fp)
			value[n] = regs->fp[slot - KFT_ARGSLOT_FP0];
		else if (spec->item[i].fmt == KFT_ARG_AGGREGATE && slot != KFT_ARGSLOT_RETVAL)
			value[n] = 0;	/* a struct's place: nothing read */
		else
			continue;	/* the return value, or no vector registers seen */
		item[n++] = &spec->item[i];
	}
	if (!n || !(rec = next_record(t, &made)))
		return;
	/* the call begins once the file is made or grown, not before: that
	 * time is kft's, not the function's (the calls open around it still
	 * hold it) */
	if (made)
		f->entry_ns = kft_now();
	put(t, rec, f, KFT_ARGREC_ARGS, item, value, n);
}

KFT_NOTRACE void kft_args_leaving(struct kft_tls *t, const struct kft_frame *f, uint64_t retval,
				  const uint64_t *fpret)
{
	const struct kft_argspec *spec = kft_args_of(f->func);
	const struct kft_argitem *item = spec ? kft_argspec_find(spec, KFT_ARGSLOT_RETVAL) : NULL;
	unsigned char *rec;
	uint64_t value;
	bool made;

	if (!item || !(f->flags & KFT_FRAME_RETVAL))
		return;
	if (item->fmt == KFT_ARG_FLOAT) {
		if (!fpret)
			return;	/* xmm0 not seen */
		value = *fpret;
	} else {
		value = retval;
	}
	if ((rec = next_record(t, &made)))
		put(t, rec, f, KFT_ARGREC_RETVAL, &item, &value, 1);
}
