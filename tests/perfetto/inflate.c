// SPDX-License-Identifier: GPL-2.0-only
/*
 * A Perfetto trace on stdin, its compressed_packets inflated, on stdout:
 * what `protoc --decode` then reads as plain packets. Only the test's:
 * it reads the top level of the wire format and nothing else.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

static int varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	*v = 0;
	for (int shift = 0; *p < end && shift < 64; shift += 7) {
		uint8_t b = *(*p)++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
	}
	return -1;
}

/* Packet (the bytes of one TracePacket): its compressed_packets inflated
 * out, or itself re-wrapped as field 1 when it has none. */
static int one_packet(const uint8_t *p, const uint8_t *end, const uint8_t *whole, size_t wlen)
{
	while (p < end) {
		uint64_t key, len;

		if (varint(&p, end, &key))
			return -1;
		if ((key & 7) == 0) {
			if (varint(&p, end, &len))
				return -1;
			continue;
		}
		if ((key & 7) != 2 || varint(&p, end, &len) || len > (uint64_t)(end - p))
			return -1;
		if (key >> 3 == 50) {
			uLongf out = 64u << 20;
			uint8_t *buf = malloc(out);

			if (!buf || uncompress(buf, &out, p, (uLong)len) != Z_OK)
				return -1;
			fwrite(buf, 1, out, stdout);
			free(buf);
			return 0;
		}
		p += len;
	}
	fwrite(whole, 1, wlen, stdout);
	return 0;
}

int main(void)
{
	size_t cap = 1 << 20, len = 0, n;
	uint8_t *data = malloc(cap);
	const uint8_t *p, *end;

	while (data && (n = fread(data + len, 1, cap - len, stdin)) > 0)
		if ((len += n) == cap)
			data = realloc(data, cap *= 2);
	if (!data)
		return 1;
	for (p = data, end = data + len; p < end;) {
		const uint8_t *start = p;
		uint64_t key, plen;

		if (varint(&p, end, &key) || key != (1 << 3 | 2) || varint(&p, end, &plen) ||
		    plen > (uint64_t)(end - p) || one_packet(p, p + plen, start, (size_t)(p + plen - start))) {
			fprintf(stderr, "inflate: not a Perfetto trace at byte %zu\n", (size_t)(start - data));
			return 1;
		}
		p += plen;
	}
	return 0;
}
