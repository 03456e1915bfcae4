/* SPDX-License-Identifier: GPL-2.0-only */
/* Calls tick() until the file "done" appears: for kft start/stop/prime. */
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) static void tick(void)
{
	struct timespec ts = { 0, 1000000 };

	nanosleep(&ts, NULL);
}

int main(void)
{
	while (access("done", F_OK))
		tick();
	tick();
	return 0;
}
