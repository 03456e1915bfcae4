/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Instrumented code that runs from .preinit_array, before any library's
 * constructor and before the C library has set up environ (as a program
 * with its own malloc or early hooks does).
 */
#include <stdio.h>

__attribute__((noinline)) void early_work(int n)
{
	volatile int x = n;

	(void)x;
}

static void early(int argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	(void)envp;
	early_work(1);
	early_work(2);
}

__attribute__((section(".preinit_array"), used)) static void (*run_early)(int, char **, char **) = early;

int main(void)
{
	early_work(3);
	puts("main");
	return 0;
}
