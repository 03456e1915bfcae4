/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The table the ground truths of tests/fidelity count into (count-calls.c,
 * count-libcalls.c): slots of a file that every process of a run maps
 * shared, so that fork children, exec'd images and processes that end
 * with _exit all count; count-calls-dump prints it.
 */
#ifndef COUNT_TABLE_H
#define COUNT_TABLE_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define COUNT_SLOTS (1 << 16)

struct count_slot {
	uint64_t key;		/* never 0; 0: a free slot */
	uint64_t count;
	char name[48];		/* "" or what the key stands for */
};

/* The table in the file the variable env names, or NULL (no variable, an
 * empty one, or a file that cannot be had). */
static inline __attribute__((no_instrument_function)) struct count_slot *
count_table_map(const char *env)
{
	const char *path = getenv(env);
	size_t size = COUNT_SLOTS * sizeof(struct count_slot);
	struct count_slot *table = NULL;
	int fd;

	if (!path || !*path || (fd = open(path, O_RDWR | O_CREAT, 0644)) < 0)
		return NULL;
	if (!ftruncate(fd, (off_t)size)) {
		void *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

		if (map != MAP_FAILED)
			table = map;
	}
	close(fd);
	return table;
}

/* One more for key (never 0); *fresh says whether its slot was free, for
 * the caller to name it. */
static inline __attribute__((no_instrument_function)) struct count_slot *
count_table_add(struct count_slot *table, uint64_t key, bool *fresh)
{
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 48) & (COUNT_SLOTS - 1);

	*fresh = false;
	for (;;) {
		uint64_t seen = __atomic_load_n(&table[i].key, __ATOMIC_ACQUIRE);

		if (!seen && __atomic_compare_exchange_n(&table[i].key, &seen, key, false,
							 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			*fresh = true;
			seen = key;
		}
		if (seen == key) {
			__atomic_fetch_add(&table[i].count, 1, __ATOMIC_RELAXED);
			return &table[i];
		}
		i = (i + 1) & (COUNT_SLOTS - 1);
	}
}

#endif
