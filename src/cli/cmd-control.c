// SPDX-License-Identifier: GPL-2.0-only
/*
 * kft prime|start|stop: what writing to /proc/kft did, for a trace whose
 * program is still running. The control file is shared memory between
 * the traced processes and us; only its owner may open it for writing.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../format/control.h"
#include "cli.h"

static const char usage[] =
	"usage: kft prime|start|stop [DIR]\n"
	"\n"
	"Drive the run state machine of the trace in DIR (default kft.data) while\n"
	"its program runs, as `echo prime >/proc/kft` did:\n"
	"  prime   arm the start trigger (the run starts when it fires)\n"
	"  start   start logging now; no prime needed\n"
	"  stop    stop logging now (calls still open are logged with -1)\n";

int cmd_control(int argc, char **argv)
{
	const char *verb = argv[0] + strlen("kft ");	/* "kft prime" */
	const char *dir;
	struct kft_control *ctl;
	char path[4096];
	bool done;
	int fd;

	if (wants_help(argc, argv, usage))
		return 0;
	if (argc > 2 || (argc == 2 && argv[1][0] == '-'))
		return fail("%s: usage: kft %s [DIR]", verb, verb);
	dir = argc == 2 ? argv[1] : KFT_DEFAULT_DIR;
	snprintf(path, sizeof(path), "%s/control", dir);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return fail("%s: %s", path, strerror(errno));
	ctl = mmap(NULL, sizeof(*ctl), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (ctl == MAP_FAILED)
		return fail("%s: %s", path, strerror(errno));
	if (memcmp(ctl->magic, KFT_CONTROL_MAGIC, sizeof(KFT_CONTROL_MAGIC)) ||
	    ctl->version != KFT_FORMAT_VERSION) {
		munmap(ctl, sizeof(*ctl));
		return fail("%s: not a kft control file", path);
	}
	if (ctl->ended_ns) {
		munmap(ctl, sizeof(*ctl));
		return fail("%s: the program of the trace in %s has ended", verb, dir);
	}
	if (!strcmp(verb, "prime"))
		done = kft_control_prime(ctl);
	else if (!strcmp(verb, "start"))
		done = kft_control_start(ctl, KFT_HOW_USER, now_ns() - ctl->clock_base_ns, 0, 0, 0);
	else
		done = kft_control_stop(ctl, KFT_HOW_USER, now_ns() - ctl->clock_base_ns, 0, 0, 0);
	munmap(ctl, sizeof(*ctl));
	if (!done)
		return fail("%s: the run is %s", verb,
			    !strcmp(verb, "stop") ? "already complete" :
						    "already running or complete");
	return 0;
}
