/* SPDX-License-Identifier: GPL-2.0-only */
__attribute__((noinline)) static void plugin_helper(void) { }

void plugin_entry(void)
{
	plugin_helper();
}
