// SPDX-License-Identifier: LGPL-2.1
/*
 * Arguments and return values (the config's args statement): for each
 * function it names, the hooks that see the argument registers (-pg,
 * -pg -mfentry, patched entries, library calls) save them at entry, in
 * one record a call in the thread's .args file, a memory-mapped log as
 * the thread file is: a killed program leaves every record counted in its
 * header. A return value asked for has its place in that record, which
 * the return trampoline fills in at exit (the records waiting for theirs
 * form a stack through those places: no frame need remember one). Only the
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
#include "vector-state.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23	/* Linux 5.14 */
#endif

#define ARGS_FIRST_SIZE (256 << 10)	/* the file's first length */
#define ARGS_STEP (256 << 10)		/* its room taken at a time */
#define ARGS_MAX_SIZE (4ULL << 30)	/* and its most */

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
	/* (not memchr, whose builds change vector registers: vector-state.h) */
	for (end = text; end < text + n && *end; end++)
		;
	v->str_state = end < text + n ? KFT_ARGSTR_READ : KFT_ARGSTR_CUT;
	v->str_len = (uint16_t)(end - text);
}

/* The thread's file's name, thread-S-T-Q.args beside its thread file. */
static KFT_NOTRACE void file_name(const struct kft_tls *t, char *name, size_t size)
{
	snprintf(name, size, "thread-%u-%u-%u.args", t->hdr->session, t->hdr->tid, t->file_seq);
}

/* The thread's file opened: a descriptor, or -1. */
static KFT_NOTRACE int open_file(const struct kft_tls *t)
{
	char name[96];

	file_name(t, name, sizeof(name));
	return openat(kft_dir(), name, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
}

/* The thread's file made with its header, size bytes long and mapped,
 * none of its records' room taken yet: 0 or -1 (then no file is left,
 * rather than one a reader would find damaged). */
static KFT_NOTRACE int open_log(struct kft_tls *t, size_t size)
{
	struct kft_args_hdr h = { .version = KFT_ARGS_VERSION, .tid = t->hdr->tid,
				  .session = kft_rt.session };
	char head[KFT_ARGS_OFF] = { 0 }, name[96];
	void *map = MAP_FAILED;
	int fd;

	_Static_assert(sizeof(h) <= KFT_ARGS_OFF, "the header fits before the records");
	memcpy(h.magic, KFT_ARGS_MAGIC, sizeof(h.magic));
	memcpy(head, &h, sizeof(h));
	file_name(t, name, sizeof(name));
	fd = openat(kft_dir(), name, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -1;
	if (pwrite(fd, head, sizeof(head), 0) == (ssize_t)sizeof(head) && !ftruncate(fd, (off_t)size))
		map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		unlinkat(kft_dir(), name, 0);
		return -1;
	}
	t->args_hdr = map;
	t->args_map_size = size;
	t->args_ready = 0;
	return 0;
}

/* Twice the file and its map: 0 or -1 (the records so far stay). */
static KFT_NOTRACE int grow_log(struct kft_tls *t)
{
	size_t size = 2 * t->args_map_size;
	void *map;
	int fd, ret;

	if (size > ARGS_MAX_SIZE || (fd = open_file(t)) < 0)
		return -1;
	ret = ftruncate(fd, (off_t)size);
	close(fd);
	if (ret)
		return -1;
	map = mremap(t->args_hdr, t->args_map_size, size, MREMAP_MAYMOVE);
	if (map == MAP_FAILED)
		return -1;
	t->args_hdr = map;
	t->args_map_size = size;
	return 0;
}

/* The next ARGS_STEP bytes of the map taken: their blocks (written with
 * zeros, so that a full disk is found here, not by a store) and their
 * pages (in one call, not a fault each as records come; an older kernel
 * says EINVAL: they fault as they come). Taken a step at a time just
 * before the records need them, the pages are still in the cache when
 * the records' stores come: 0 or -1. */
static KFT_NOTRACE int take_step(struct kft_tls *t)
{
	size_t off = t->args_ready, end = off + ARGS_STEP;
	int fd = open_file(t);

	if (fd < 0)
		return -1;
	if (end > t->args_map_size)
		end = t->args_map_size;
	/* (the header has its block: open_log wrote it) */
	for (size_t at = off ? off : KFT_ARGS_OFF; at < end; at += 64 << 10)
		if (kft_take_room(fd, at, end - at < (64 << 10) ? end - at : 64 << 10)) {
			close(fd);
			return -1;
		}
	close(fd);
	madvise((char *)t->args_hdr + off, end - off, MADV_POPULATE_WRITE);
	t->args_ready = end;
	return 0;
}

/* The file's first need bytes taken: 0 or -1. Its name is made by
 * snprintf: the vector registers are kept (vector-state.h). */
static KFT_NOTRACE __attribute__((noinline)) int take_room(struct kft_tls *t, size_t need)
{
	struct kft_vec_keep vec;
	int ret = 0;

	kft_vec_keep(&vec);
	if (!t->args_hdr && open_log(t, ARGS_FIRST_SIZE))
		ret = -1;
	while (!ret && t->args_ready < need)
		if ((t->args_ready == t->args_map_size && grow_log(t)) || take_step(t))
			ret = -1;
	kft_vec_give_back(&vec);
	return ret;
}

KFT_NOTRACE void kft_args_finish(struct kft_tls *t)
{
	int saved = errno, fd;

	/* the file ends where its records do (its room was taken ahead; if
	 * it cannot be cut, readers go by the header's end) */
	if (t->args_hdr && t->hdr && (fd = open_file(t)) >= 0) {
		int cut = ftruncate(fd, (off_t)(KFT_ARGS_OFF + t->args_hdr->end));

		(void)cut;
		close(fd);
	}
	errno = saved;
	kft_args_unmap(t);
}

KFT_NOTRACE void kft_args_unmap(struct kft_tls *t)
{
	if (t->args_hdr)
		munmap(t->args_hdr, t->args_map_size);
	t->args_hdr = NULL;
	t->args_map_size = 0;
	t->args_ready = 0;
	t->args_pending = 0;
	t->args_full = false;
}

/* Room for the largest record at the end of the thread's file: where it
 * goes, or NULL (no room could be had: nothing is saved). *made says
 * whether the file was made or grown for it (a system call or more). */
static KFT_NOTRACE unsigned char *next_record(struct kft_tls *t, bool *made)
{
	int saved = errno;
	size_t need;
	bool ok;

	*made = false;
	if (t->args_full) {
		if (t->args_hdr)
			t->args_hdr->lost++;
		return NULL;
	}
	need = KFT_ARGS_OFF + (t->args_hdr ? t->args_hdr->end : 0) + KFT_ARGREC_MAX;
	if (need <= t->args_ready)
		return (unsigned char *)t->args_hdr + KFT_ARGS_OFF + t->args_hdr->end;
	*made = true;
	ok = !take_room(t, need);
	errno = saved;
	if (!ok) {
		t->args_full = true;	/* no more tries in this thread */
		if (t->args_hdr)
			t->args_hdr->lost++;
		return NULL;
	}
	return (unsigned char *)t->args_hdr + KFT_ARGS_OFF + t->args_hdr->end;
}

/* At rec, the record of the call of frame f: n values, value[i] shown as
 * item[i] says; a return value's (item[0], if any) is to come. */
static KFT_NOTRACE void put(struct kft_tls *t, unsigned char *rec, const struct kft_frame *f,
			    const struct kft_argitem *const *item, const uint64_t *value, int n)
{
	struct kft_argrec_head h = { .entry_ns = f->entry_ns, .func = f->func, .sp = f->sp,
				     .kind = KFT_ARGREC_CALL, .nvals = (uint8_t)n };
	unsigned char *p = rec + sizeof(h);

	for (int i = 0; i < n; i++) {
		struct kft_argval v = { .value = value[i], .slot = item[i]->slot,
					.fmt = item[i]->fmt, .bits = item[i]->bits };

		if (v.slot == KFT_ARGSLOT_RETVAL) {
			v.str_state = KFT_ARGSTR_PENDING;
			v.value = t->args_pending;
			if (v.fmt == KFT_ARG_STR)
				v.room = KFT_ARGS_STR_MAX;
			t->args_pending = (uint64_t)(rec - (unsigned char *)t->args_hdr);
		} else if (v.fmt == KFT_ARG_STR) {
			read_string(&v, (char *)p + sizeof(v));
		}
		if (v.fmt == KFT_ARG_ENUM && item[i]->enum_type) {
			/* the type's name: the views find its enumerators */
			const char *name = item[i]->enum_type;

			/* (by hand, not strnlen and memcpy: vector-state.h) */
			for (; v.str_len < KFT_ENUM_TYPE_MAX - 1 && name[v.str_len]; v.str_len++)
				p[sizeof(v) + v.str_len] = (unsigned char)name[v.str_len];
		}
		memcpy(p, &v, sizeof(v));
		p += kft_argval_next(&v);
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
	const struct kft_argitem *item[KFT_ARGSPEC_ITEMS], *ret;
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
	if ((ret = kft_argspec_find(spec, KFT_ARGSLOT_RETVAL))) {
		value[n] = 0;
		item[n++] = ret;
	}
	for (unsigned int i = 0; i < spec->n; i++) {
		unsigned int slot = spec->item[i].slot;

		if (slot < KFT_MAX_ARGS)
			value[n] = regs->r[slot];
		else if (slot >= KFT_ARGSLOT_FP0 && slot < KFT_ARGSLOT_STACK0 && regs->have_fp)
			value[n] = regs->fp[slot - KFT_ARGSLOT_FP0];
		else if (spec->item[i].fmt == KFT_ARG_AGGREGATE && slot != KFT_ARGSLOT_RETVAL)
			value[n] = 0;	/* a struct's place: nothing read */
		else if (slot >= KFT_ARGSLOT_STACK0 && regs->stack)
			value[n] = regs->stack[slot - KFT_ARGSLOT_STACK0];	/* the caller's */
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
	put(t, rec, f, item, value, n);
	if (ret)
		f->flags |= KFT_FRAME_RETVAL;	/* its end goes the whole way */
}

KFT_NOTRACE void kft_args_leaving(struct kft_tls *t, const struct kft_frame *f, uint64_t retval,
				  const uint64_t *fpret)
{
	unsigned char *base = (unsigned char *)t->args_hdr, *at;
	struct kft_argrec_head h;
	struct kft_argval v;
	uint64_t off;

	if (!(f->flags & KFT_FRAME_RETVAL))
		return;
	/* the newest record waiting is this call's, unless calls inside it
	 * never returned (a longjmp, an exception): theirs wait no more */
	for (off = t->args_pending; off; off = v.value) {
		memcpy(&h, base + off, sizeof(h));
		memcpy(&v, base + off + sizeof(h), sizeof(v));
		if (h.entry_ns <= f->entry_ns)
			break;
	}
	t->args_pending = off;
	if (!off || h.entry_ns != f->entry_ns || h.func != f->func)
		return;	/* its record was not written (no room) */
	t->args_pending = v.value;
	if (v.fmt == KFT_ARG_FLOAT) {
		if (!fpret)
			return;	/* xmm0 not seen: it stays to come */
		v.value = *fpret;
	} else {
		v.value = retval;
	}
	v.str_state = KFT_ARGSTR_NONE;
	at = base + off + sizeof(h);
	if (v.fmt == KFT_ARG_STR)
		read_string(&v, (char *)at + sizeof(v));
	/* the value, then what says it came: a reader after a crash sees
	 * the one with the other */
	memcpy(at, &v.value, sizeof(v.value));
	barrier();
	memcpy(at + sizeof(v.value), (const unsigned char *)&v + sizeof(v.value),
	       sizeof(v) - sizeof(v.value));
}
