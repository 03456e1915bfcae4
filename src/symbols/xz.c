// SPDX-License-Identifier: LGPL-2.1
#include <dlfcn.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>

#include "../common/own-lib.h"
#include "xz.h"

#define MAX_OUT (1UL << 30)	/* a symbol table, not a disk image */

typedef lzma_ret (*buffer_decode_fn)(uint64_t *, uint32_t, const lzma_allocator *,
				     const uint8_t *, size_t *, size_t, uint8_t *, size_t *,
				     size_t);

static buffer_decode_fn find_decoder(void)
{
	static buffer_decode_fn fn;
	static bool tried;
	void *lib;

	if (tried)
		return fn;
	tried = true;
	lib = kft_own_lib("liblzma.so.5");
	if (lib)
		fn = (buffer_decode_fn)dlsym(lib, "lzma_stream_buffer_decode");
	return fn;
}

int kft_xz_inflate(const void *in, size_t len, void **out, size_t *out_len)
{
	buffer_decode_fn decode = find_decoder();

	if (!decode || !len)
		return -1;
	/* the size is not in the header: try, and double the room */
	for (size_t room = len < 4096 ? 32768 : 8 * len; room <= MAX_OUT; room *= 2) {
		uint64_t memlimit = UINT64_MAX;
		size_t in_pos = 0, out_pos = 0;
		void *buf = mmap(NULL, room, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				 -1, 0);
		lzma_ret ret;

		if (buf == MAP_FAILED)
			return -1;
		ret = decode(&memlimit, 0, NULL, in, &in_pos, len, buf, &out_pos, room);
		if (ret == LZMA_OK) {
			*out = buf;
			*out_len = out_pos;
			return 0;
		}
		munmap(buf, room);
		if (ret != LZMA_BUF_ERROR)
			return -1;
	}
	return -1;
}
