// SPDX-License-Identifier: GPL-2.0-only
/*
 * kft.ko: KFT's kernel interface, /proc/kft and /proc/kft_data, as a
 * module for today's kernels. Load it, write a config to /proc/kft, prime
 * or start, read /proc/kft_data; unloading gives every task its own
 * return addresses back.
 */
#include <linux/module.h>

#include "kft-module.h"

static int __init kft_init(void)
{
	int ret = kft_tasks_init();

	if (ret)
		return ret;
	ret = kft_proc_init();
	if (ret)
		kft_tasks_exit();
	return ret;
}

static void __exit kft_exit_module(void)
{
	kft_proc_exit();
	kft_run_shutdown();
}

module_init(kft_init);
module_exit(kft_exit_module);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kft: KFT's /proc/kft function-duration tracer on ftrace");
