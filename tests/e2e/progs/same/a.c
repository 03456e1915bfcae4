/* SPDX-License-Identifier: GPL-2.0-only */
/* A static function named like one in b.c. */
__attribute__((noinline)) static void create_dir(void) { __asm__ volatile(""); }	/* not pure: the call stays */

void from_a(void)
{
	create_dir();
}
