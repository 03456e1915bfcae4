/* SPDX-License-Identifier: GPL-2.0-only */
__attribute__((noinline)) static void create_dir(void) { __asm__ volatile(""); }	/* not pure: the call stays */

void from_b(void)
{
	create_dir();
	create_dir();
}
