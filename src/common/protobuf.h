/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Protocol buffers written by hand: the wire format's varints and
 * length-delimited fields into a growing buffer, enough to write a
 * message whose schema the caller knows (no descriptors, no library).
 */
#ifndef KFT_PROTOBUF_H
#define KFT_PROTOBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct kft_pb {
	uint8_t *data;
	size_t len, cap;
	bool failed;		/* out of memory once: the buffer is not to be used */
};

/* Field number field as a varint (int32/64, uint32/64, bool, enum). */
void kft_pb_varint(struct kft_pb *pb, uint32_t field, uint64_t v);
/* A length-delimited field: a string or bytes. */
void kft_pb_bytes(struct kft_pb *pb, uint32_t field, const void *data, size_t len);
static inline void kft_pb_string(struct kft_pb *pb, uint32_t field, const char *s)
{
	kft_pb_bytes(pb, field, s, strlen(s));
}

/*
 * A nested message: kft_pb_open() starts it, and the fields written until
 * kft_pb_close(pb, mark) with the mark it gave make its contents.
 */
size_t kft_pb_open(struct kft_pb *pb, uint32_t field);
void kft_pb_close(struct kft_pb *pb, size_t mark);

/* Empty it, keeping its memory; free it. */
static inline void kft_pb_reset(struct kft_pb *pb)
{
	pb->len = 0;
}
void kft_pb_free(struct kft_pb *pb);

#endif
