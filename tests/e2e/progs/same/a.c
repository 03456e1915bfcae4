/* SPDX-License-Identifier: GPL-2.0-only */
/* A static function named like one in b.c. */
__attribute__((noinline)) static void create_dir(void) { }

void from_a(void)
{
	create_dir();
}
