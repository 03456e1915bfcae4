/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The KFT configuration language: one parser for files given to
 * `kft record -c` and for configs handed to a running trace.
 *
 *   [new]
 *   begin
 *     trigger start|stop entry|exit FUNC
 *     trigger start|stop time USECS
 *     filter mintime|maxtime USECS
 *     filter noints | filter onlyints
 *     filter cpus LIST          (0,2-3, or a hex mask 0x...)
 *     filter funclist FUNC... fend
 *     args FUNC[@SPEC]... fend  (SPEC: argN[/FMT] and retval[/FMT], by commas)
 *     watch stack|worst-stack BYTES
 *     logentries N
 *     autorepeat | overwrite | prime
 *   end
 *
 * FUNC is a symbol name or a hex address (0x...). '#' starts a comment.
 */
#ifndef KFT_CONFIG_H
#define KFT_CONFIG_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

#include "../common/error.h"

/* Default capacity of one thread's log, in records. KFT's kernel default
 * was 20000; a user program makes calls far faster, so ours is larger. */
#define KFT_DEFAULT_LOGENTRIES 1000000ULL
#define KFT_MAX_LOGENTRIES (1ULL << 32)
#define KFT_MAX_FUNCLIST 4096
#define KFT_MAX_CPUS 1024	/* the CPUs a "filter cpus" list may name */

enum kft_trigger_type {
	KFT_TRIGGER_NONE = 0,
	KFT_TRIGGER_ENTRY,
	KFT_TRIGGER_EXIT,
	KFT_TRIGGER_TIME,
	/* the two below never come from a config: they say why a run moved */
	KFT_TRIGGER_USER,
	KFT_TRIGGER_LOG_FULL,
};

enum kft_watch_type {
	KFT_WATCH_NONE = 0,
	KFT_WATCH_STACK,
	KFT_WATCH_WORST_STACK,
};

/* A function as the config names it: by symbol (name != NULL) or address. */
struct kft_func_ref {
	char *name;
	uint64_t addr;
	unsigned int line;	/* where the config named it, for error messages */
};

struct kft_trigger {
	enum kft_trigger_type type;
	struct kft_func_ref func;	/* ENTRY, EXIT */
	uint64_t usecs;			/* TIME */
};

/* A list of functions ("filter notrace ... fend"): names, globs, @sets. */
struct kft_func_list {
	bool set;
	size_t n;
	struct kft_func_ref *refs;
};

/* What kft saves of a function's calls ("args" statement, kft record -A,
 * -R and -a): items, each a place (slot) and how to show what is there
 * (KFT_ARG_*), in the order the views show them (a function's parameters
 * in their order). The places: the six integer argument registers (slots
 * 0-5: arg1 to arg6), the return value (6), the eight floating-point
 * argument registers (8-15: fparg1 to fparg8; as trace-format.h's
 * struct kft_argval numbers them), and the first eight words of the
 * arguments passed on the stack, above the return address (16-23:
 * stack1 to stack8; a struct passed in memory holds its first word's,
 * /S). */
#define KFT_MAX_ARGS 6
#define KFT_MAX_FPARGS 8
#define KFT_MAX_STACKARGS 8
#define KFT_ARGSLOT_RETVAL 6
#define KFT_ARGSLOT_FP0 8
#define KFT_ARGSLOT_STACK0 16	/* stack1..8: words passed on the stack */
#define KFT_ARGSPEC_ITEMS (KFT_MAX_ARGS + KFT_MAX_FPARGS + KFT_MAX_STACKARGS + 1)
#define KFT_ARG_INT 'd'		/* signed decimal */
#define KFT_ARG_UINT 'u'	/* unsigned decimal */
#define KFT_ARG_HEX 'x'		/* hexadecimal */
#define KFT_ARG_STR 's'		/* a C string the value points to */
#define KFT_ARG_BOOL 'b'	/* false (0) or true */
#define KFT_ARG_FLOAT 'f'	/* a float (32 bits) or double (64) */
#define KFT_ARG_ENUM 'e'	/* an enumerator's name (e:TYPE) */
#define KFT_ARG_AGGREGATE 'S'	/* a struct passed by value: its place held, shown {...} */
#define KFT_ENUM_TYPE_MAX 40	/* an enum type's name: letters, digits, _ and : */
struct kft_argitem {
	const char *enum_type;	/* KFT_ARG_ENUM's type, as the trace's enums
				 * file names it (kft_enum_type_intern), or NULL */
	uint8_t slot;
	char fmt;
	uint8_t bits;		/* its size: 8, 16, 32, or 0: 64 (FMT's suffix) */
	uint8_t spare[5];	/* (no padding: specs are compared whole) */
};
struct kft_argspec {
	struct kft_argitem item[KFT_ARGSPEC_ITEMS];
	uint8_t n;
};

/* "ITEM,ITEM..." into *spec, ITEM argN, fpargN or retval, each with
 * /FMT, FMT a letter and for d, u, x, b and f a size (d32, f32), or
 * e:TYPE: 0, or -1 (a bad spec). */
int kft_argspec_parse(const char *text, struct kft_argspec *spec);
/* spec as kft_argspec_parse reads it, into buf. */
const char *kft_argspec_str(const struct kft_argspec *spec, char *buf, size_t size);
/* Whether name[0, len) can be an /e:TYPE's type: 1 to
 * KFT_ENUM_TYPE_MAX - 1 letters, digits, '_' and ':'. */
bool kft_enum_type_ok(const char *name, size_t len);
/* name[0, len) kept once for the process's life (a spec's item points
 * at it, so that -a's thousands of specs stay small): NULL when out of
 * memory. */
const char *kft_enum_type_intern(const char *name, size_t len);
/* spec's item for slot, or NULL. */
const struct kft_argitem *kft_argspec_find(const struct kft_argspec *spec, int slot);
/* Add to `to` what `from` asks and `to` does not: 0, or -1 (no room). */
int kft_argspec_merge(struct kft_argspec *to, const struct kft_argspec *from);
/* slot's name in a spec ("arg1", "fparg2", "retval") into buf. */
const char *kft_argslot_name(int slot, char *buf, size_t size);

/* A named set of functions (KPTrace's symbol groups): names or globs. */
struct kft_set {
	char *name;
	char **members;
	size_t nmembers;
};

struct kft_config {
	bool has_new;
	struct kft_trigger start;
	struct kft_trigger stop;
	uint64_t mintime;		/* usecs, 0 = off */
	uint64_t maxtime;		/* usecs, 0 = off */
	bool noints;
	bool onlyints;
	/* tracing_cpumask: only calls entered on these CPUs are logged */
	bool cpus_set;
	uint64_t cpus[KFT_MAX_CPUS / 64];
	bool has_funclist;
	size_t nfuncs;
	struct kft_func_ref *funcs;
	enum kft_watch_type watch;
	uint64_t watch_bytes;
	uint64_t logentries;		/* KFT_DEFAULT_LOGENTRIES if not given */
	bool logentries_set;
	bool autorepeat;
	bool overwrite;
	bool prime;
	bool libcalls;			/* "libcalls": kft record --libcalls */
	bool libcalls_all;		/* "libcalls all": --libcalls=all */
	struct kft_set *sets;		/* set NAME F1 F2 ... */
	size_t nsets;
	/* ftrace's selections, as set_ftrace_notrace, set_graph_function and
	 * max_graph_depth: functions never traced (they win over funclist),
	 * the functions only inside which calls are traced, and how many
	 * levels are traced from the outermost traced call (or graph
	 * function) down; 0: all */
	struct kft_func_list skip_list;	/* "filter notrace" */
	struct kft_func_list graph;
	uint32_t max_depth;
	/* "args": the functions whose arguments or return value are saved,
	 * argspecs[i] saying what of args.refs[i] */
	struct kft_func_list args;
	struct kft_argspec *argspecs;
	/* not a statement: `kft record --kernel --irqs` also records the
	 * kernel's interrupt and softirq events */
	bool irq_events;
	/* not a statement either: kft record --kernel records sched_switch
	 * (unless --no-switches) */
	bool switch_events;
};

/* Set every field to its default (no triggers, no filters). */
void kft_config_init(struct kft_config *cfg);

/*
 * Parse text (len bytes, need not be NUL-terminated). origin names the
 * source in error messages ("file.conf"). On error returns -1 with
 * "origin:line: message naming the word" in err and cfg left empty.
 * Free the result with kft_config_release().
 */
int kft_config_parse(struct kft_config *cfg, const char *text, size_t len,
		     const char *origin, struct kft_error *err);

/* Read and parse a file. */
int kft_config_load(struct kft_config *cfg, const char *path, struct kft_error *err);

void kft_config_release(struct kft_config *cfg);

/*
 * Print cfg back in the language (a form kft_config_parse accepts again).
 * Returns a malloc'ed string (free it), or NULL when out of memory.
 */
char *kft_config_format(const struct kft_config *cfg);

/*
 * What from says of the function lists (funclist, notrace, graph, args
 * with their specs) added to cfg's, each function as given by no line of
 * cfg's (0); its depth and CPUs, where it sets them, in place of cfg's.
 * from's lists are emptied. 0, or -1 when out of memory (cfg as it was).
 */
int kft_config_merge(struct kft_config *cfg, struct kft_config *from);

/* One more function for the args statement (made if there is none):
 * name (copied) with spec. 0, or -1 when out of memory. */
int kft_config_add_args(struct kft_config *cfg, const char *name, const struct kft_argspec *spec);
/* Whether the args statement names name already. */
bool kft_config_has_args(const struct kft_config *cfg, const char *name);

/* The set called name, or NULL. */
const struct kft_set *kft_config_set(const struct kft_config *cfg, const char *name);

/* Whether a function's name is a glob (foo*, *foo, f?o, [ab]*). */
bool kft_is_glob(const char *name);

/* Whether "filter cpus" lets calls on cpu be logged (all, without one). */
static inline bool kft_config_cpu_in(const struct kft_config *cfg, unsigned int cpu)
{
	return !cfg->cpus_set ||
	       (cpu < KFT_MAX_CPUS && (cfg->cpus[cpu / 64] >> (cpu % 64) & 1));
}

/* cfg's CPUs as a list, "0,2-3", into buf: KFT_CPUS_STR_MAX holds any
 * (a smaller buf cuts it short). */
#define KFT_CPUS_STR_MAX 2560
const char *kft_config_cpus_str(const struct kft_config *cfg, char *buf, size_t size);

/* "name" or "0x..." for a function reference, into buf. */
const char *kft_func_ref_str(const struct kft_func_ref *ref, char *buf, size_t size);

#endif
