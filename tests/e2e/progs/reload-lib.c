// SPDX-License-Identifier: GPL-2.0-only
/* Built twice, with WORK a different name each time: two libraries alike
 * to the byte but for their symbols; with PAD, a function more ahead of
 * the others, which puts them elsewhere. */
#ifdef PAD
__attribute__((noinline)) void pad(void)
{
	__asm__ volatile("");
}
#endif

__attribute__((noinline)) void WORK(void)
{
	__asm__ volatile("");
}

void entry(void)
{
	WORK();
}
