/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Two runs to compare: parse and render each call work() 100 times;
 * with an argument, render's work is a hundred times longer (a
 * regression entering through render, far larger than what a busy
 * machine's preemption adds to either).
 */
static volatile int sink;

__attribute__((noinline)) void work(int n)
{
	for (int i = 0; i < n; i++)
		sink += i;
}
__attribute__((noinline)) void parse(int n) { work(n); }
__attribute__((noinline)) void render(int n) { work(n); }

int main(int argc, char **argv)
{
	(void)argv;
	for (int i = 0; i < 100; i++) {
		parse(20000);
		render(argc > 1 ? 2000000 : 20000);
	}
	return 0;
}
