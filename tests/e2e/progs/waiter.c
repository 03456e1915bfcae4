/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A program steered from outside: it writes its pid to ./pid, then ticks
 * every millisecond; when the file go-a appears it calls a() once and
 * makes did-a, likewise for b, and it ends when ./end appears.
 */
#include <stdio.h>
#include <unistd.h>

static volatile int sink;

__attribute__((noinline)) static void tick(void)
{
	sink++;
}

__attribute__((noinline)) static void a(void)
{
	sink += 2;
}

__attribute__((noinline)) static void b(void)
{
	sink += 3;
}

static void touch(const char *name)
{
	FILE *f = fopen(name, "w");

	if (f)
		fclose(f);
}

int main(void)
{
	FILE *f = fopen("pid.tmp", "w");
	int did_a = 0, did_b = 0;

	if (!f)
		return 1;
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	rename("pid.tmp", "pid");
	while (access("end", F_OK)) {
		if (!did_a && !access("go-a", F_OK)) {
			a();
			did_a = 1;
			touch("did-a");
		}
		if (!did_b && !access("go-b", F_OK)) {
			b();
			did_b = 1;
			touch("did-b");
		}
		tick();
		usleep(1000);
	}
	return 0;
}
