// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "args-writer.h"

_Static_assert(sizeof(struct kft_args_hdr) == KFT_ARGS_OFF, "records follow the header");

int kft_args_write(const char *dir, uint32_t session, uint32_t tid,
		   const struct kft_args_call *calls, size_t n, struct kft_error *err)
{
	struct kft_args_hdr h = { .version = KFT_ARGS_VERSION, .tid = tid, .session = session };
	char path[PATH_MAX];
	FILE *f = NULL;
	int bad, fd;

	memcpy(h.magic, KFT_ARGS_MAGIC, sizeof(KFT_ARGS_MAGIC));
	for (size_t i = 0; i < n; i++)
		h.end += sizeof(struct kft_argrec_head) + calls[i].ret.len + calls[i].args.len;
	snprintf(path, sizeof(path), "%s/thread-%u-%u-0.args", dir, session, tid);
	/* never through a link planted in the trace directory */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		return kft_error_set(err, "%s: %s", path, strerror(errno));
	}
	bad = fwrite(&h, sizeof(h), 1, f) != 1;
	for (size_t i = 0; i < n && !bad; i++) {
		const struct kft_args_call *c = &calls[i];
		struct kft_argrec_head r = {
			.entry_ns = c->entry_ns,
			.func = c->func,
			.sp = c->sp,
			.size = (uint16_t)(sizeof(r) + c->ret.len + c->args.len),
			.kind = KFT_ARGREC_CALL,
			.nvals = (uint8_t)(c->ret.n + c->args.n),
		};

		bad = fwrite(&r, sizeof(r), 1, f) != 1 ||
		      (c->ret.len && fwrite(c->ret.data, c->ret.len, 1, f) != 1) ||
		      (c->args.len && fwrite(c->args.data, c->args.len, 1, f) != 1);
	}
	if (fclose(f) || bad)
		return kft_error_set(err, "%s: write failed: %s", path, strerror(errno));
	return 0;
}
