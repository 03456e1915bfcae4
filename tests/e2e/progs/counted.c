/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Calls work() until killed, counting in a shared file ("count": its pid,
 * then the calls of work() that returned) after each return, so that a
 * trace cut by SIGKILL at any moment can be checked against it.
 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile uint64_t sink;

__attribute__((noinline)) static void leaf(uint64_t i) { sink += i; }

__attribute__((noinline)) static void work(uint64_t i)
{
	leaf(i);
	for (int k = 0; k < 2000; k++)	/* a microsecond or so: fewer calls to read */
		sink += (uint64_t)k;
	leaf(i + 1);
}

int main(void)
{
	int fd = open("count", O_RDWR | O_CREAT | O_TRUNC, 0644);
	volatile uint64_t *count;

	if (fd < 0 || ftruncate(fd, 4096))
		return 1;
	count = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (count == MAP_FAILED)
		return 1;
	count[0] = (uint64_t)getpid();
	for (uint64_t i = 0;; i++) {
		work(i);
		count[1] = i + 1;
	}
}
