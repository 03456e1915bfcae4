// SPDX-License-Identifier: GPL-2.0-only
/* Coroutines on ucontext: main resumes two of them in turn; each does
 * some work and yields back. When both have ended, a third runs on the
 * log one of them left. */
#include <stdio.h>
#include <ucontext.h>

#define NOINLINE __attribute__((noinline))

static ucontext_t main_ctx, co_ctx[3];
static char stacks[3][64 * 1024];
static volatile int sink;

NOINLINE void leaf(int i)
{
	for (int k = 0; k < 1000; k++)
		sink += i;
}

NOINLINE void yield_to_main(int i)
{
	swapcontext(&co_ctx[i], &main_ctx);
}

NOINLINE void co_body(int i)
{
	for (int k = 0; k < 2; k++) {
		leaf(i);
		yield_to_main(i);
	}
	sink++;
}

NOINLINE void resume(int i)
{
	swapcontext(&main_ctx, &co_ctx[i]);
}

NOINLINE void after(void)
{
	sink++;
}

NOINLINE void make(int i)
{
	getcontext(&co_ctx[i]);
	co_ctx[i].uc_stack.ss_sp = stacks[i];
	co_ctx[i].uc_stack.ss_size = sizeof(stacks[i]);
	co_ctx[i].uc_link = &main_ctx;
	makecontext(&co_ctx[i], (void (*)(void))co_body, 1, i);
}

int main(void)
{
	make(0);
	make(1);
	for (int r = 0; r < 3; r++)
		for (int i = 0; i < 2; i++)
			resume(i);
	after();
	make(2);
	for (int r = 0; r < 3; r++)
		resume(2);
	printf("done %d\n", sink > 0);
	return 0;
}
