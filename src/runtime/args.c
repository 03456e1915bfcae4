// SPDX-License-Identifier: LGPL-2.1
/*
 * Arguments and return values (the config's args statement): for each
 * function it names, the hooks that see the argument registers (-pg,
 * -pg -mfentry, patched entries, library calls) save them at entry, and
 * the return trampoline the return value at exit, one record each in the
 * trace's `args` file. Only the functions asked for pay: a lookup in a
 * sorted table, a write, and for a string a bounded copy that cannot
 * fault (process_vm_readv reads our own memory and says where it stops).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "runtime.h"

static int args_fd = -1;	/* the trace's args file, opened at the first record */

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

/* The string value i points to, into r's text from *used on: room bytes
 * at most, its NUL included. */
static KFT_NOTRACE void read_string(struct kft_argrec *r, int i, size_t *used, size_t room)
{
	const char *p = (const char *)(uintptr_t)r->regs[i];
	struct iovec local = { r->text + *used, room - 1 }, remote = { (void *)p, room - 1 };
	ssize_t n;
	char *end;

	r->str_off[i] = (uint8_t)*used;
	if (!p) {
		r->str_state[i] = KFT_ARGSTR_NULL;
		return;
	}
	/* (a read that crosses into an unmapped page stops at its edge; one
	 * that starts in one fails) */
	n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
	if (n <= 0) {
		r->str_state[i] = KFT_ARGSTR_FAULT;
		return;
	}
	end = memchr(r->text + *used, '\0', (size_t)n);
	r->str_state[i] = end ? KFT_ARGSTR_READ : KFT_ARGSTR_CUT;
	if (!end)
		end = r->text + *used + n;
	/* what was read past the string is the program's: not kept */
	memset(end, 0, (size_t)(r->text + *used + n - end) + (end == r->text + *used + n));
	*used = (size_t)(end - r->text) + 1;
}

static KFT_NOTRACE void put(const struct kft_tls *t, const struct kft_frame *f, int kind,
			    const char *fmt, const uint8_t *bits, int nfmt, const uint64_t *regs)
{
	struct kft_argrec r;
	size_t used = 0;
	int nstr = 0, fd, saved = errno;

	memset(&r, 0, sizeof(r));
	r.entry_ns = f->entry_ns;
	r.func = f->func;
	r.sp = f->sp;
	r.tid = t->hdr->tid;
	r.session = kft_rt.session;
	r.kind = (uint8_t)kind;
	for (int i = 0; i < nfmt; i++) {
		r.fmt[i] = fmt[i];
		r.bits[i] = bits[i];
		r.regs[i] = fmt[i] ? regs[i] : 0;
		nstr += fmt[i] == KFT_ARG_STR;
	}
	/* each string its share of the room */
	for (int i = 0; i < nfmt; i++)
		if (fmt[i] == KFT_ARG_STR)
			read_string(&r, i, &used, KFT_ARGS_TEXT / (size_t)nstr);
	/* (a short write leaves a piece of a record, which readers drop) */
	fd = kft_append_file(&args_fd, "args");
	if (fd >= 0 && write(fd, &r, sizeof(r)) < 0)
		fd = -1;
	errno = saved;
}

KFT_NOTRACE void kft_args_entered(struct kft_tls *t, uint64_t now, uintptr_t fn,
				  const uint64_t *regs)
{
	const struct kft_argspec *spec = kft_args_of(fn);
	uint64_t depth = t->hdr->depth;
	const struct kft_frame *f;

	if (!spec || !depth || depth > t->frames_cap)
		return;
	/* (the frame the hook opened, if it logged one: a sibling call
	 * ended the frame below it first) */
	f = &t->frames[depth - 1];
	if (f->func != fn || f->entry_ns != now || !(f->flags & KFT_FRAME_LOGGED))
		return;
	for (int i = 0; i < KFT_MAX_ARGS; i++)
		if (spec->arg[i]) {
			put(t, f, KFT_ARGREC_ARGS, spec->arg, spec->arg_bits, KFT_MAX_ARGS, regs);
			return;
		}
}

KFT_NOTRACE void kft_args_leaving(struct kft_tls *t, const struct kft_frame *f, uint64_t retval)
{
	const struct kft_argspec *spec = kft_args_of(f->func);

	if (spec && spec->ret && (f->flags & KFT_FRAME_LOGGED))
		put(t, f, KFT_ARGREC_RETVAL, &spec->ret, &spec->ret_bits, 1, &retval);
}
