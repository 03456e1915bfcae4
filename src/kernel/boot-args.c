// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>

#include "boot-args.h"

#define BYTES_PER_CALL 80	/* a function_graph entry and exit in the ring */
#define DEFAULT_BUFFER_KB 4096

unsigned long long kft_kernel_buffer_kb(const struct kft_config *cfg)
{
	unsigned long long kb = DEFAULT_BUFFER_KB;

	if (cfg->logentries_set)
		kb = (cfg->logentries * BYTES_PER_CALL + 1023) / 1024;
	return kb < 64 ? 64 : kb;
}

/* " name=a,b,c" for a list (names and globs), nothing for none */
static void put_list(FILE *out, const char *name, const struct kft_func_ref *refs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? "," : name, refs[i].name);
}

static const char *trigger_word(const struct kft_trigger *t)
{
	return t->type == KFT_TRIGGER_ENTRY ? "entry" : t->type == KFT_TRIGGER_EXIT ? "exit" :
									"time";
}

void kft_boot_args(const struct kft_config *cfg, FILE *args, FILE *notes)
{
	/* function_graph times every call; mono is the clock kft reads */
	fprintf(args, "ftrace=function_graph trace_clock=mono trace_buf_size=%lluK",
		kft_kernel_buffer_kb(cfg));
	/* KFT's log stops when full: the first calls of the boot are kept */
	fprintf(args, " trace_options=%soverwrite%s", cfg->overwrite ? "" : "no",
		cfg->noints ? ",nofuncgraph-irqs" : "");
	if (cfg->mintime)
		fprintf(args, " tracing_thresh=%" PRIu64, cfg->mintime);
	put_list(args, " ftrace_filter=", cfg->funcs, cfg->nfuncs);
	put_list(args, " ftrace_notrace=", cfg->skip_list.refs, cfg->skip_list.n);
	put_list(args, " ftrace_graph_filter=", cfg->graph.refs, cfg->graph.n);
	if (cfg->max_depth)
		fprintf(args, " ftrace_graph_max_depth=%u", cfg->max_depth);
	fputc('\n', args);

	if (cfg->start.type != KFT_TRIGGER_NONE)
		fprintf(notes, "trigger start %s: not on the command line (the kernel takes no "
			"function or time trigger for the function tracers there): tracing "
			"starts as soon as ftrace is up, early in start_kernel\n",
			trigger_word(&cfg->start));
	if (cfg->stop.type != KFT_TRIGGER_NONE)
		fprintf(notes, "trigger stop %s: not on the command line: after boot, `kft "
			"kernel data --from-boot` turns tracing off, then reads the buffer\n",
			trigger_word(&cfg->stop));
	if (cfg->maxtime)
		fprintf(notes, "filter maxtime: ftrace has no upper bound; `kft kernel data "
			"--from-boot -c CONFIG` applies it as it reads the buffer\n");
	if (cfg->onlyints)
		fprintf(notes, "filter onlyints: applied by `kft kernel data --from-boot -c "
			"CONFIG` as it reads the buffer\n");
	if (cfg->cpus_set)
		fprintf(notes, "filter cpus: not at boot (the kernel takes no tracing_cpumask "
			"on its command line): every CPU's calls are recorded\n");
	if (cfg->watch != KFT_WATCH_NONE)
		fprintf(notes, "watch stack: not at boot (the stack tracer's `stacktrace` "
			"parameter keeps its own deepest stack, not KFT's chains)\n");
	if (cfg->args.n)
		fprintf(notes, "args: not at boot (Linux 6.1 makes a kprobe_event= probe "
			"without its tracefs files, so its records cannot be read): `kft "
			"kernel` and `kft record --kernel` save arguments\n");
	if (cfg->autorepeat)
		fprintf(notes, "autorepeat: not at boot (there is no trigger to re-arm)\n");
}
