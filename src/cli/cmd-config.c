// SPDX-License-Identifier: GPL-2.0-only
/*
 * kft config: a new run for a program that is being traced, as writing
 * `new ...` to /proc/kft installed one in KFT, except that the old run's
 * records stay: they are the trace's calls up to now, and its config is
 * kept as config-run<ID>.
 *
 * The exchange with the traced processes goes through the control file:
 * the old run is stopped (no call is logged while the config changes;
 * calls open end unfinished, as at any stop), the config file is
 * replaced, the run id is raised, and each process image's helper thread
 * loads the new config and says so in run_loaded; then the new run is
 * primed (or left loaded, --no-prime).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../config/config.h"
#include "../format/control.h"
#include "../record/target.h"
#include "cli.h"

#define TAKE_WAIT_MS 5000	/* for a process image to load the new config */

static const char usage[] =
	"usage: kft config [--no-prime] [DIR|PID] FILE\n"
	"\n"
	"Install the config in FILE as a new run of the trace in DIR (default\n"
	"kft.data), or of the traced process PID, while its program runs, as\n"
	"writing `new` to /proc/kft did. The current run stops (calls open end\n"
	"unfinished), the program's processes take the new functions, filters\n"
	"and triggers, and the new run, with the next run id, is primed: it\n"
	"starts as its start trigger says. The old run's calls stay in the trace;\n"
	"its config is kept as config-run<ID> in the trace directory.\n"
	"\n"
	"      --no-prime   leave the new run loaded (unless FILE says `prime`):\n"
	"                   arm it later with `kft prime` or start it with\n"
	"                   `kft start`\n"
	"\n"
	"A config cannot turn a growing log into a ring (overwrite) or back, and a\n"
	"kernel trace takes none. Only the program's owner (or root) may do this.\n";

/* Keep the current config as config-run<id>, put the new one in place:
 * an image that starts meanwhile reads one or the other, whole. */
static int replace_config(const char *dir, const struct kft_config *cfg, uint32_t id)
{
	char now[4200], kept[4200], fresh[4200];
	char *text = kft_config_format(cfg);
	struct kft_error err;
	int ret;

	if (!text)
		return kft_cli_fail("out of memory");
	ret = kft_cli_said(kft_trace_dir_write(dir, "config.new", text, strlen(text), &err), &err);
	free(text);
	if (ret)
		return ret;
	snprintf(now, sizeof(now), "%s/config", dir);
	snprintf(kept, sizeof(kept), "%s/config-run%u", dir, id);
	snprintf(fresh, sizeof(fresh), "%s/config.new", dir);
	unlink(kept);
	if (link(now, kept) && errno != ENOENT)
		return kft_cli_fail("%s: %s", kept, strerror(errno));
	if (rename(fresh, now))
		return kft_cli_fail("%s: %s", now, strerror(errno));
	return 0;
}

/* Wait for a process image to take run id; false if none did. */
static bool taken(struct kft_control *ctl, uint32_t id)
{
	for (int ms = 0; ms < TAKE_WAIT_MS; ms++) {
		if (__atomic_load_n(&ctl->run_loaded, __ATOMIC_ACQUIRE) >= id)
			return true;
		if (__atomic_load_n(&ctl->ended_ns, __ATOMIC_ACQUIRE))
			return false;
		kft_nap_ms(1);
	}
	return false;
}

static int install(const char *dir, struct kft_control *ctl, const struct kft_config *cfg,
		   const char *file, bool primed)
{
	uint32_t old = __atomic_load_n(&ctl->run_id, __ATOMIC_ACQUIRE), id = old + 1;
	bool ring = ctl->mode & KFT_MODE_OVERWRITE;
	char path[4200];

	snprintf(path, sizeof(path), "%s/user-config", dir);
	if (!access(path, F_OK))
		return kft_cli_fail("config: %s is a kernel trace: its config is the kernel's "
				    "(kft kernel config)",
				    dir);
	if (!ctl->run_loaded)
		return kft_cli_fail("config: the program of %s was started by an older kft, which "
				    "cannot take a new config",
				    dir);
	if (cfg->overwrite != ring)
		return kft_cli_fail("config: %s: the trace's log %s; a new config cannot change "
				    "that "
				    "(record anew)",
				    file, ring ? "is a ring (overwrite)" : "grows (no overwrite)");
	/* the old run ends here, as by `kft stop`: a run already complete
	 * stays as it is */
	kft_control_stop(ctl, KFT_HOW_USER, kft_mono_now_ns() - ctl->clock_base_ns, 0, 0, 0);
	if (replace_config(dir, cfg, old))
		return 1;
	__atomic_store_n(&ctl->mode,
			 (ctl->mode & ~KFT_MODE_AUTOREPEAT) |
				 (cfg->autorepeat ? KFT_MODE_AUTOREPEAT : 0),
			 __ATOMIC_RELEASE);
	__atomic_store_n(&ctl->run_id, id, __ATOMIC_RELEASE);
	if (!taken(ctl, id))
		return kft_cli_fail("config: run %u is installed, but no process of %s took it "
				    "within "
				    "%d s: %s",
				    id, dir, TAKE_WAIT_MS / 1000,
				    ctl->ended_ns ? "the program ended"
						  : "a process without kft's helper thread (on one "
						    "CPU, "
						    "or with KFT_PREFAULT=0) cannot take a new "
						    "config");
	kft_control_new_run(ctl, primed);
	printf("run %u installed%s; run %u's config kept as %s/config-run%u\n", id,
	       primed ? " and primed" : ", not primed", old, dir, old);
	return 0;
}

int kft_cmd_config(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "no-prime", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kft_config cfg;
	struct kft_control *ctl;
	struct kft_error err;
	bool no_prime = false;
	const char *file;
	char dir[4096];
	int c, ret;

	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case 'P':
			no_prime = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			kft_cli_usage_error(usage);
			return 2;
		}
	}
	if (argc - optind < 1 || argc - optind > 2)
		return kft_cli_fail("config: usage: kft config [--no-prime] [DIR|PID] FILE");
	file = argv[argc - 1];
	if (kft_cli_said(kft_trace_target(argc - optind == 2 ? argv[optind] : KFT_DEFAULT_DIR, dir,
					  sizeof(dir), &err),
			 &err))
		return 1;
	kft_config_init(&cfg);
	if (kft_config_load(&cfg, file, &err))
		return kft_cli_fail("%s", err.msg);
	if (cfg.libcalls) {
		/* (the GOT is taken as the program starts) */
		kft_config_release(&cfg);
		return kft_cli_fail("config: %s: libcalls is for kft record: a new run cannot "
				    "change it",
				    file);
	}
	ctl = kft_map_control(dir, "config", &err);
	if (!ctl) {
		kft_config_release(&cfg);
		return kft_cli_said(-1, &err);
	}
	ret = install(dir, ctl, &cfg, file, cfg.prime || !no_prime);
	kft_unmap_control(ctl);
	kft_config_release(&cfg);
	return ret;
}
