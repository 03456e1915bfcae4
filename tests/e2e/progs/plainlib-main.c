/* SPDX-License-Identifier: GPL-2.0-only */
/* Calls into plainlib.c's library: its own code is traced or not, as
 * built; the library's is when kft record --lib names it. */
#include <stdio.h>

int lib_sum(int n);
int lib_leaf(int x);

int main(void)
{
	printf("%d %d\n", lib_sum(5), lib_leaf(3));
	return 0;
}
