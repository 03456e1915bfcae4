/* SPDX-License-Identifier: GPL-2.0-only */
/* A library function's address the program takes, compared with the
 * library's own (dlsym): the same under kft record --libcalls too, where
 * built -fno-plt the program reads it from the GOT slot it also calls
 * free through. Prints "same 1". */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void (*volatile kept)(void *);
static char *volatile held;

__attribute__((noinline)) int same(void)
{
	kept = free;
	return kept == (void (*)(void *))dlsym(RTLD_DEFAULT, "free");
}

int main(int argc, char **argv)
{
	held = malloc(strlen(argv[0]) + (size_t)argc);
	free(held);
	printf("same %d\n", same());
	return 0;
}
