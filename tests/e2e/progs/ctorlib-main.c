/* SPDX-License-Identifier: GPL-2.0-only */
/* Calls into ctorlib.c's library, whose constructor ran before main. */
#include <stdio.h>

int ctor_value(void);

int main(void)
{
	printf("ctor_work %d\n", ctor_value());
	return 0;
}
