/* SPDX-License-Identifier: GPL-2.0-only */
/* A library whose constructor calls a function of its own: it runs
 * before the constructor of a library preloaded after it (libkft's). */
static int value;

__attribute__((noinline)) int ctor_work(int x)
{
	__asm__ volatile("");
	return x + 1;
}

__attribute__((constructor)) static void ctor_init(void)
{
	value = ctor_work(1);
}

int ctor_value(void)
{
	return ctor_work(value);
}
