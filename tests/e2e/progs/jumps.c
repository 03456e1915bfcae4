/* SPDX-License-Identifier: GPL-2.0-only */
/* longjmp out of three levels, then ordinary calls again. */
#include <setjmp.h>

static jmp_buf env;

static volatile int stop_at;

__attribute__((noinline)) static void deep(int n)
{
	if (n < 0)
		return;
	if (n == stop_at)
		longjmp(env, 1);
	deep(n - 1);
}

__attribute__((noinline)) static void after_jump(void) { __asm__ volatile(""); }	/* not pure: the call stays */

__attribute__((noinline)) static void guarded(void)
{
	if (!setjmp(env))
		deep(2);
	after_jump();
}

int main(void)
{
	guarded();
	after_jump();
	return 0;
}
