// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file-io.h"
#include "grow.h"
#include "spill.h"
#include "tempfile.h"

/* 16 KiB a page: a thread's array costs at most four of them. */
#define PAGE_VALUES 4096u
/* Up to this many values an array is simply memory. */
#define SMALL_VALUES (4 * PAGE_VALUES)

/* Every large array's region, in one sparse file (the tools read one
 * trace at a time, on one thread). */
static int shared_fd = -1;
static uint64_t shared_end;

static uint64_t region_bytes(uint64_t n)
{
	return (n * sizeof(uint32_t) + 65535) & ~(uint64_t)65535;
}

/* The shared file, with bytes at *base of it for the caller. */
static int shared_bytes(uint64_t bytes, uint64_t *base)
{
	if (shared_fd < 0) {
		struct kft_error ignored;

		shared_fd = kft_temp_file(&ignored);
		if (shared_fd < 0)
			return -1;
	}
	*base = shared_end;
	shared_end += bytes;
	return shared_fd;
}

static int shared_region(uint64_t n, uint64_t *base)
{
	return shared_bytes(region_bytes(n), base);
}

int kft_spill32_init(struct kft_spill32 *a, uint64_t n, struct kft_error *err)
{
	memset(a, 0, sizeof(*a));
	a->n = n;
	a->fd = -1;
	for (int i = 0; i < KFT_SPILL_SLOTS; i++)
		a->slot[i].page = UINT64_MAX;
	if (n > SMALL_VALUES && (a->fd = shared_region(n, &a->base)) >= 0) {
		a->written = calloc((n / PAGE_VALUES + 1) / 8 + 1, 1);
		return a->written ? 0 : kft_error_set(err, "out of memory");
	}
	/* small, or no temporary file to be had: memory */
	a->mem = calloc(n ? n : 1, sizeof(*a->mem));
	return a->mem ? 0 : kft_error_set(err, "out of memory for %llu calls",
					    (unsigned long long)n);
}

static bool was_written(const struct kft_spill32 *a, uint64_t page)
{
	return a->written[page / 8] & (1u << (page % 8));
}

static int page_io(struct kft_spill32 *a, uint64_t page, uint32_t *v, bool out)
{
	uint64_t first = page * PAGE_VALUES;
	uint64_t count = a->n - first < PAGE_VALUES ? a->n - first : PAGE_VALUES;
	int e = kft_file_io(a->fd, v, count * sizeof(*v), a->base + first * sizeof(*v), out);

	if (e) {
		if (!a->error)
			a->error = e;
		return -1;
	}
	if (out)
		a->written[page / 8] |= (uint8_t)(1u << (page % 8));
	return 0;
}

/* The slot holding page, after writing out what it held: NULL on error. */
static struct kft_spill_slot *take(struct kft_spill32 *a, uint64_t page)
{
	struct kft_spill_slot *s = &a->slot[page % KFT_SPILL_SLOTS];

	if (s->page == page)
		return s;
	if (!s->v && !(s->v = malloc(PAGE_VALUES * sizeof(*s->v)))) {
		a->error = a->error ? a->error : ENOMEM;
		return NULL;
	}
	if (s->page != UINT64_MAX && s->dirty && page_io(a, s->page, s->v, true))
		return NULL;
	s->page = UINT64_MAX;
	s->dirty = false;
	if (was_written(a, page)) {
		if (page_io(a, page, s->v, false))
			return NULL;
	} else {
		memset(s->v, 0, PAGE_VALUES * sizeof(*s->v));
	}
	s->page = page;
	return s;
}

int kft_spill32_set(struct kft_spill32 *a, uint64_t i, uint32_t v)
{
	uint64_t page = i / PAGE_VALUES;
	struct kft_spill_slot *s;

	if (a->mem) {
		a->mem[i] = v;
		return 0;
	}
	s = &a->slot[page % KFT_SPILL_SLOTS];
	if (s->page != page && was_written(a, page)) {
		/* a late value for a page long written out (a call open
		 * across it): into the file alone, the cache left as it is */
		int e = kft_file_io(a->fd, &v, sizeof(v), a->base + i * sizeof(v), true);

		if (e && !a->error)
			a->error = e;
		return e ? -1 : 0;
	}
	if (!(s = take(a, page)))
		return -1;
	s->v[i % PAGE_VALUES] = v;
	s->dirty = true;
	return 0;
}

uint32_t kft_spill32_get(struct kft_spill32 *a, uint64_t i)
{
	struct kft_spill_slot *s;

	if (a->mem)
		return a->mem[i];
	s = take(a, i / PAGE_VALUES);
	return s ? s->v[i % PAGE_VALUES] : 0;
}

/* 0, or -1 with err set if e says a read or write of the file failed. */
static int file_error(int e, struct kft_error *err)
{
	return e ? kft_error_set(err, "a temporary file (TMPDIR): %s", strerror(e)) : 0;
}

int kft_spill32_check(const struct kft_spill32 *a, struct kft_error *err)
{
	return file_error(a->error, err);
}

void kft_spill32_free(struct kft_spill32 *a)
{
	free(a->mem);
	free(a->written);
	for (int i = 0; i < KFT_SPILL_SLOTS; i++)
		free(a->slot[i].v);
	/* its pages given back (a tmpfs keeps them in memory) */
	if (a->fd >= 0)
		(void)fallocate(a->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)a->base,
				(off_t)region_bytes(a->n));
	memset(a, 0, sizeof(*a));
	a->fd = -1;
}

#define RUN_BYTES (KFT_SPILL_RUN * sizeof(uint32_t))

/* buf's KFT_SPILL_RUN values out to a block of the file: 0, or -1 (then
 * the list stays in memory from here on). */
static int write_block(struct kft_spill_list *l)
{
	uint64_t at;
	int fd = shared_bytes(RUN_BYTES, &at);

	if (fd < 0 ||
	    kft_grow((void **)&l->blocks, l->nblocks, &l->capblocks, sizeof(*l->blocks), 16) ||
	    kft_file_io(fd, l->buf, RUN_BYTES, at, true)) {
		if (fd >= 0)
			(void)fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)at,
					(off_t)RUN_BYTES);
		l->memory = true;
		return -1;
	}
	l->blocks[l->nblocks++] = at;
	return 0;
}

int kft_spill_list_add(struct kft_spill_list *l, uint32_t v)
{
	uint64_t held = l->n - (uint64_t)l->nblocks * KFT_SPILL_RUN;

	if (held == KFT_SPILL_RUN && !l->memory && !write_block(l))
		held = 0;
	if (kft_grow((void **)&l->buf, held, &l->cap, sizeof(*l->buf), 256))
		return -1;
	l->buf[held] = v;
	l->n++;
	return 0;
}

int kft_spill_list_each(struct kft_spill_list *l, uint32_t *scratch,
			void (*fn)(void *ctx, const uint32_t *v, size_t n), void *ctx)
{
	for (size_t b = 0; b < l->nblocks; b++) {
		int e = kft_file_io(shared_fd, scratch, RUN_BYTES, l->blocks[b], false);

		if (e) {
			l->error = e;
			return -1;
		}
		fn(ctx, scratch, KFT_SPILL_RUN);
	}
	fn(ctx, l->buf, l->n - (uint64_t)l->nblocks * KFT_SPILL_RUN);
	return 0;
}

int kft_spill_list_check(const struct kft_spill_list *l, struct kft_error *err)
{
	return file_error(l->error, err);
}

void kft_spill_list_free(struct kft_spill_list *l)
{
	for (size_t b = 0; b < l->nblocks; b++)
		(void)fallocate(shared_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				(off_t)l->blocks[b], (off_t)RUN_BYTES);
	free(l->buf);
	free(l->blocks);
	memset(l, 0, sizeof(*l));
}
