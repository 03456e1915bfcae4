/* SPDX-License-Identifier: GPL-2.0-only */
__attribute__((noinline)) static void plugin_helper(void) { __asm__ volatile(""); }	/* not pure: the call stays */

void plugin_entry(void)
{
	plugin_helper();
}
