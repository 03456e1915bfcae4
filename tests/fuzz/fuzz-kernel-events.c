// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's function_graph events as kft pairs them (src/kernel/
 * pairing.c), however ftrace delivered them: lost entries and exits,
 * depths that jump, interrupts; or the function tracer's events. The
 * input is a config (4 bytes) and events (8 bytes each); the calls are written as
 * thread files beside a program thread traced too, then every view reads
 * the trace (fuzz_read_trace).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/control.h"
#include "format/thread-writer.h"
#include "fuzz.h"
#include "kernel/pairing.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NTASKS 3
static const int32_t task_pid[NTASKS] = { 100, 101, 0 };

static void put_control(const char *dir)
{
	struct kft_control ctl;
	char path[128];
	FILE *f;

	kft_control_init(&ctl, 0, KFT_MODE_TIMED, true);
	snprintf(path, sizeof(path), "%s/control", dir);
	if (!(f = fopen(path, "w")))
		abort();
	fwrite(&ctl, sizeof(ctl), 1, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/config", dir);
	if (!(f = fopen(path, "w")))
		abort();
	fputs("begin\nend\n", f);
	fclose(f);
}

/* Thread 100 traced in the program too: main { f { g } h }. */
static void put_program(const char *dir)
{
	static const struct kft_rec_data recs[] = {
		{ .entry_ns = 3000, .func = 0x1003, .dur = 2000, .depth = 2 },
		{ .entry_ns = 1000, .func = 0x1002, .dur = 20000, .depth = 1 },
		{ .entry_ns = 30000, .func = 0x1004, .dur = 40000, .depth = 1 },
		{ .entry_ns = 0, .func = 0x1001, .dur = 100000, .depth = 0 },
	};
	struct kft_thread_out out = { .session = 1, .pid = 100, .tid = 100, .recs = recs,
				      .nrecs = sizeof(recs) / sizeof(recs[0]) };
	struct kft_error err;

	if (kft_thread_write(dir, &out, &err))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *dir = fuzz_dir();
	struct kft_config cfg;
	struct kft_kev *ev;
	size_t n = 0;
	uint64_t ts = 0;
	bool function;
	static struct kft_task_out t;

	if (size < 4)
		return 0;
	kft_config_init(&cfg);
	cfg.noints = data[0] & 1;
	cfg.onlyints = data[0] & 2;
	cfg.overwrite = data[0] & 4;
	cfg.logentries_set = data[0] & 8;
	cfg.logentries = data[3];
	cfg.mintime = data[1] & 7;
	cfg.maxtime = data[2];
	function = data[0] & 16;
	data += 4;
	size -= 4;
	ev = calloc(size / 8 + 1, sizeof(*ev));
	if (!ev)
		abort();
	for (; size >= 8; data += 8, size -= 8, n++) {
		ts += (uint64_t)(data[4] | data[5] << 8);
		ev[n] = (struct kft_kev){
			/* ftrace's function tracer, or its function_graph */
			.ts = ts, .type = function ? KFT_KEV_FUNCTION : (uint8_t)(data[0] & 1),
			.irq = data[0] >> 7,
			.depth = (int8_t)data[1], .func = 0xffffffff81000000ULL + (data[2] & 15) * 0x100,
			.pid = task_pid[data[3] % NTASKS],
			.extra = (uint64_t)(data[6] | data[7] << 8) * 10,
			.seq = (uint32_t)n,
		};
	}
	put_control(dir);
	put_program(dir);
	for (int k = 0; k < NTASKS; k++) {
		struct kft_kev *mine = calloc(n + 1, sizeof(*mine));
		size_t m = 0;
		struct kft_thread_out out = { .session = 2, .tid = (uint32_t)task_pid[k] };
		struct kft_error err;

		if (!mine)
			abort();
		for (size_t i = 0; i < n; i++)
			if (ev[i].pid == task_pid[k])
				mine[m++] = ev[i];
		t.n = 0;
		memset(&t.c, 0, sizeof(t.c));
		if (kft_kernel_pair(mine, m, &cfg, 0, &t))
			abort();
		kft_kernel_cut(&t, &cfg);
		out.pid = out.tid;
		out.recs = t.recs;
		out.nrecs = t.n;
		out.frames = t.frames;
		out.nframes = t.top;
		out.counters = t.c;
		if ((t.n || t.top) && kft_thread_write(dir, &out, &err))
			abort();
		free(mine);
	}
	free(ev);
	fuzz_read_trace(dir);
	return 0;
}
