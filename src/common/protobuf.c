// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "protobuf.h"

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

/* Room for n more bytes. */
static bool room(struct kft_pb *pb, size_t n)
{
	size_t cap = pb->cap ? pb->cap : 256;
	uint8_t *bigger;

	if (pb->failed)
		return false;
	if (pb->len + n <= pb->cap)
		return true;
	while (cap < pb->len + n)
		cap *= 2;
	bigger = realloc(pb->data, cap);
	if (!bigger) {
		pb->failed = true;
		return false;
	}
	pb->data = bigger;
	pb->cap = cap;
	return true;
}

static size_t varint_size(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* v at p, which has room for it; the bytes written. */
static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

static void tag(struct kft_pb *pb, uint32_t field, unsigned int wire)
{
	pb->len += put_varint(pb->data + pb->len, (uint64_t)field << 3 | wire);
}

void kft_pb_varint(struct kft_pb *pb, uint32_t field, uint64_t v)
{
	if (!room(pb, 20))
		return;
	tag(pb, field, WIRE_VARINT);
	pb->len += put_varint(pb->data + pb->len, v);
}

void kft_pb_bytes(struct kft_pb *pb, uint32_t field, const void *data, size_t len)
{
	if (!room(pb, 20 + len))
		return;
	tag(pb, field, WIRE_LEN);
	pb->len += put_varint(pb->data + pb->len, len);
	memcpy(pb->data + pb->len, data, len);
	pb->len += len;
}

/* The length goes in one byte, the common case; a longer message moves
 * up when it is closed. */
size_t kft_pb_open(struct kft_pb *pb, uint32_t field)
{
	if (!room(pb, 11))
		return 0;
	tag(pb, field, WIRE_LEN);
	pb->data[pb->len++] = 0;
	return pb->len;
}

void kft_pb_close(struct kft_pb *pb, size_t mark)
{
	size_t len, more;

	if (pb->failed)
		return;
	len = pb->len - mark;
	more = varint_size(len) - 1;
	if (more) {
		if (!room(pb, more))
			return;
		memmove(pb->data + mark + more, pb->data + mark, len);
		pb->len += more;
	}
	put_varint(pb->data + mark - 1, len);
}

void kft_pb_free(struct kft_pb *pb)
{
	free(pb->data);
	memset(pb, 0, sizeof(*pb));
}
