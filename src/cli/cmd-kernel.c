// SPDX-License-Identifier: GPL-2.0-only
/*
 * kft kernel: KFT's /proc/kft and /proc/kft_data, step by step, for
 * scripts written the old way: load a config, prime, start, stop, read.
 * The session lives in $KFT_KERNEL_STATE (default /run/kft): the config,
 * the journal of changed settings, and the trace (kft.data).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kernel/boot-args.h"
#include "../kernel/module.h"
#include "../kernel/session.h"
#include "../record/kernel-steps.h"
#include "cli.h"

static const char usage[] =
	"usage: kft kernel config FILE   check a KFT config against this kernel and load it\n"
	"       kft kernel prime         set ftrace up for it (start trigger armed)\n"
	"       kft kernel start         start tracing now\n"
	"       kft kernel stop          stop, collect the trace, restore every setting\n"
	"       kft kernel status        the session's state (and the trace's, once stopped)\n"
	"       kft kernel data          the trace in the /proc/kft_data layout (stops first)\n"
	"       kft kernel reset         restore whatever a session left set\n"
	"       kft kernel bootargs CONFIG\n"
	"                                the kernel command line that makes CONFIG's trace\n"
	"                                while the kernel boots (and, on stderr, what of\n"
	"                                CONFIG the command line cannot say)\n"
	"       kft kernel data --from-boot [-c CONFIG] -o DIR\n"
	"                                after such a boot: tracing off, what ftrace traced\n"
	"                                since boot into the trace DIR (CONFIG's maxtime,\n"
	"                                onlyints and logentries applied as it is read)\n"
	"\n"
	"As root. With kft.ko loaded (/proc/kft there), config, prime, start, stop,\n"
	"status and data use it: the calls are timed and filtered in the kernel.\n"
	"Otherwise they use ftrace: the session lives in $KFT_KERNEL_STATE (default\n"
	"/run/kft); its trace is $KFT_KERNEL_STATE/kft.data, for kft kd, kft ftrace\n"
	"and the rest. `kft kernel status` names the backend in its first line.\n"
	"`kft record --kernel` does all of it in one command.\n";

/* The kernel session's steps that have something to say besides their
 * errors. */
static void kernel_said(const struct kft_kernel_result *res, const char *dir, bool since_boot)
{
	char text[512];

	kft_kernel_result_text(res, dir, since_boot, text, sizeof(text));
	fprintf(stderr, "kft: %s\n", text);
}

static int load_config(struct kft_config *cfg)
{
	struct kft_error err;
	const char *path = kft_kernel_state_path("config");

	kft_config_init(cfg);
	if (access(path, F_OK))
		return kft_cli_fail("no kernel config loaded: `kft kernel config FILE` first");
	if (kft_config_load(cfg, path, &err))
		return kft_cli_fail("%s", err.msg);
	return 0;
}

static int do_config(const char *file)
{
	struct kft_kernel k;
	struct kft_config cfg;
	struct kft_error err;
	char *text;
	int ret = 1;

	if (kft_kernel_primed())
		return kft_cli_fail("a session is primed: `kft kernel stop` it before loading a "
				    "config");
	kft_config_init(&cfg);
	if (kft_config_load(&cfg, file, &err))
		return kft_cli_fail("%s", err.msg);
	if (kft_kmod_loaded()) {
		/* checked here first, so a mistake names the file; the file
		 * as written, so the module's line numbers are the file's */
		kft_config_release(&cfg);
		text = kft_file_read(file, &err);
		if (!text)
			return kft_cli_fail("%s", err.msg);
		ret = kft_cli_said(kft_kmod_send(text, file, &err), &err);
		free(text);
		return ret;
	}
	if (!kft_cli_said(kft_kernel_session_check(&k, &cfg, file, &err), &err)) {
		text = kft_config_format(&cfg);
		ret = text ? kft_cli_said(kft_trace_dir_write(kft_kernel_state_path(""), "config",
							      text, strlen(text), &err),
					  &err)
			   : kft_cli_fail("out of memory");
		free(text);
		kft_kernel_release(&k);
	}
	kft_config_release(&cfg);
	return ret;
}

static int do_prime(void)
{
	struct kft_config cfg;
	struct kft_error err;
	int ret;

	if (load_config(&cfg))
		return 1;
	ret = kft_cli_said(kft_kernel_prime(kft_kernel_state_path("kft.data"), &cfg,
					    kft_kernel_state_path("config"), kft_cli_say, NULL, &err),
			   &err);
	kft_config_release(&cfg);
	return ret;
}

static int do_stop(void)
{
	struct kft_kernel_result res;
	struct kft_config cfg;
	struct kft_error err;
	const char *dir = kft_kernel_state_path("kft.data");
	int ret;

	if (!kft_kernel_primed())
		return kft_cli_fail("no kernel session is primed");
	if (load_config(&cfg))
		return 1;
	ret = kft_cli_said(kft_kernel_stop(dir, &cfg, &res, &err), &err);
	if (!ret)
		kernel_said(&res, dir, false);
	kft_config_release(&cfg);
	return ret;
}

static int do_start(void)
{
	struct kft_error err;

	return kft_cli_said(kft_kernel_start(&err), &err);
}

static int do_status(void)
{
	char *argv[] = { "status", (char *)kft_kernel_state_path("kft.data"), NULL };
	struct kft_kernel k;
	struct kft_error err;
	char *cfg;

	printf("backend: ftrace (tracefs; kft.ko is not loaded)\n");
	if (kft_kernel_primed()) {
		if (kft_kernel_probe(&k, &err))
			return kft_cli_fail("%s", err.msg);
		uint64_t events = kft_kernel_cpu_stat(k.dir, (const char *const[]){ "entries:",
										   NULL });
		bool on = kft_kernel_is_on(&k);

		cfg = kft_file_read(kft_kernel_state_path("config"), &err);
		/* off with events: the stop trigger fired (KFT's "completed") */
		printf("status: kernel session primed, %s, %llu events in the buffer\n",
		       on ? "tracing on" : events ? "complete: tracing off, `kft kernel data` "
					    "collects it" : "tracing off (waiting for the "
								   "start trigger)",
		       (unsigned long long)events);
		printf("config:\n%s", cfg ? cfg : "");
		free(cfg);
		kft_kernel_release(&k);
		return 0;
	}
	if (access(argv[1], F_OK)) {
		cfg = kft_file_read(kft_kernel_state_path("config"), &err);
		printf("status: no kernel session%s\n", cfg ? "; config loaded:" : "");
		fputs(cfg ? cfg : "", stdout);
		free(cfg);
		return 0;
	}
	return kft_cmd_status(2, argv);
}

static int do_data(void)
{
	char *argv[] = { "log", (char *)kft_kernel_state_path("kft.data"), NULL };

	if (kft_kernel_primed() && do_stop())
		return 1;
	if (access(argv[1], F_OK))
		return kft_cli_fail("no kernel trace yet: config, prime, start, stop first");
	return kft_cmd_log(2, argv);
}

static int do_bootargs(const char *file)
{
	struct kft_config cfg;
	struct kft_error err;

	if (kft_config_load(&cfg, file, &err))
		return kft_cli_fail("%s", err.msg);
	kft_boot_args(&cfg, stdout, stderr);
	kft_config_release(&cfg);
	return 0;
}

/* kft kernel data --from-boot [-c CONFIG] -o DIR */
static int do_data_from_boot(int argc, char **argv)
{
	const char *config = NULL, *dir = NULL;
	struct kft_config cfg;
	struct kft_kernel_result res;
	struct kft_error err;
	int ret;

	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "-c") && i + 1 < argc)
			config = argv[++i];
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			dir = argv[++i];
		else
			return kft_cli_fail("kernel: data --from-boot: '%s'? (-c CONFIG, -o "
					    "DIR)",
					    argv[i]);
	}
	if (!dir)
		return kft_cli_fail("kernel: data --from-boot: -o DIR: where to write the trace");
	kft_config_init(&cfg);
	if (config && kft_config_load(&cfg, config, &err))
		return kft_cli_fail("%s", err.msg);
	ret = kft_cli_said(kft_kernel_from_boot(dir, &cfg, kft_cli_say, NULL, &res, &err), &err);
	if (!ret)
		kernel_said(&res, dir, true);
	kft_config_release(&cfg);
	return ret;
}

static int do_reset(void)
{
	struct kft_error err;

	if (access(kft_kernel_state_path("journal"), F_OK)) {
		fprintf(stderr, "kft: nothing to restore\n");
		return 0;
	}
	return kft_cli_said(kft_kernel_reset(&err), &err);
}

int kft_cmd_kernel(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(void);
	} steps[] = {
		{ "prime", do_prime }, { "start", do_start }, { "stop", do_stop },
		{ "status", do_status }, { "data", do_data }, { "reset", do_reset },
	};
	const char *what = argc > 1 ? argv[1] : "";

	if (kft_cli_wants_help(argc, argv, usage))
		return 0;
	if (argc == 2 && kft_kmod_loaded()) {
		struct kft_error err;

		if (!strcmp(what, "prime") || !strcmp(what, "start") || !strcmp(what, "stop"))
			return kft_cli_said(kft_kmod_send(what, what, &err), &err);
		if (!strcmp(what, "status"))
			return kft_cli_said(kft_kmod_status(stdout, &err), &err);
		if (!strcmp(what, "data"))
			return kft_cli_said(kft_kmod_data(stdout, &err), &err);
	}
	if (!strcmp(what, "config") && argc == 3)
		return do_config(argv[2]);
	if (!strcmp(what, "bootargs") && argc == 3)
		return do_bootargs(argv[2]);
	if (!strcmp(what, "data") && argc > 2 && !strcmp(argv[2], "--from-boot"))
		return do_data_from_boot(argc, argv);
	for (size_t i = 0; argc == 2 && i < sizeof(steps) / sizeof(steps[0]); i++)
		if (!strcmp(what, steps[i].name))
			return steps[i].run();
	kft_cli_usage_error(usage);
	return 2;
}
