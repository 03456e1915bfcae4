// SPDX-License-Identifier: LGPL-2.1
/*
 * The config in this process image: loaded from the trace directory,
 * its function names and globs resolved to addresses in every loaded
 * object, and published for the hooks. Done at start, again when a
 * library is opened (new names may resolve), and when `kft config`
 * installs a new run (the helper thread follows it, kft_reload_follow).
 * Lists are published whole and old ones kept: a hook may still read
 * one.
 */
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../symbols/elf-symtab.h"
#include "runtime.h"

/* The addresses of one list (funclist, notrace, graph), growing. */
struct addr_list {
	uint64_t *v;
	size_t n, cap;
};

static KFT_NOTRACE void push_addr(struct addr_list *l, uint64_t addr)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		uint64_t *bigger = realloc(l->v, cap * sizeof(*bigger));

		if (!bigger)
			return;	/* out of memory at start: the function is not found */
		l->v = bigger;
		l->cap = cap;
	}
	l->v[l->n++] = addr;
}

struct resolve_ctx {
	const char *name;		/* a name, or a glob for a list */
	struct rt_trigger *trig;	/* a trigger's: its slots */
	struct addr_list *list;		/* or a list's */
};

static KFT_NOTRACE void add_trigger_addr(struct rt_trigger *trig, uint64_t addr)
{
	for (size_t i = 0; i < trig->naddrs; i++)
		if (trig->addrs[i] == addr)
			return;
	if (trig->naddrs < KFT_MAX_TRIGGER_ADDRS)
		trig->addrs[trig->naddrs++] = addr;
}

/* Look every named function up in every loaded object, and note how far
 * each configured function reaches (for -pg, see kft_config_func_at). */
struct names {
	struct resolve_ctx *ctx;
	size_t n;
	const uint64_t *hex;	/* functions the config gives by address */
	size_t nhex;
	struct kft_range *ranges;
	size_t nranges, maxranges;
};

static KFT_NOTRACE void add_range(struct names *names, const struct kft_elf *elf, uint64_t vaddr,
				  uint64_t base)
{
	const struct kft_elf_sym *sym = kft_elf_lookup(elf, vaddr);

	if (!sym || sym->addr != vaddr)
		return;
	if (names->nranges == names->maxranges) {
		size_t cap = names->maxranges ? 2 * names->maxranges : 64;
		struct kft_range *bigger = realloc(names->ranges, cap * sizeof(*bigger));

		if (!bigger)
			return;
		names->ranges = bigger;
		names->maxranges = cap;
	}
	names->ranges[names->nranges].start = vaddr + base;
	names->ranges[names->nranges].end = vaddr + base + (sym->size ? sym->size : 1);
	names->nranges++;
}

static KFT_NOTRACE void resolve_name(struct names *names, const struct resolve_ctx *r,
				     const struct kft_elf *elf, uint64_t base)
{
	uint64_t one[KFT_MAX_TRIGGER_ADDRS], *addrs = one;
	size_t n, max = KFT_MAX_TRIGGER_ADDRS;

	if (r->list && kft_is_glob(r->name)) {
		/* a glob may name any number: count them, then take them */
		max = kft_elf_find_glob(elf, r->name, NULL, 0);
		if (!max || !(addrs = malloc(max * sizeof(*addrs))))
			return;
		n = kft_elf_find_glob(elf, r->name, addrs, max);
	} else {
		n = kft_elf_find(elf, r->name, addrs, max);
	}
	for (size_t k = 0; k < n && k < max; k++) {
		if (r->list)
			push_addr(r->list, addrs[k] + base);
		else
			add_trigger_addr(r->trig, addrs[k] + base);
		add_range(names, elf, addrs[k], base);
	}
	if (addrs != one)
		free(addrs);
}

/*
 * The symbols of each loaded object, read once while it stays loaded: a
 * dlopen resolves the config in every object again, and reading them
 * (libc's, sorted) took 3-4 ms an opening. Known by the object's base and
 * its file (device, inode, size, mtime: a file rebuilt is read anew);
 * one no longer loaded at the end of a pass is let go. Under resolve_lock.
 */
#define MAX_READ 256

struct read_object {
	struct kft_object_id id;
	bool loaded;		/* seen in this pass */
	struct kft_elf elf;
};

static struct read_object read_objects[MAX_READ];
static int nread;

/* Object base's symbols (its file path), read now or before; NULL if
 * they cannot be. own: where they are read; returned when there is no
 * room to keep them, to be closed after use. */
static KFT_NOTRACE struct kft_elf *object_symbols(uintptr_t base, const char *path,
						  struct kft_elf *own)
{
	struct stat st;

	if (stat(path, &st))
		return NULL;
	for (int i = 0; i < nread; i++) {
		struct read_object *o = &read_objects[i];

		if (kft_object_is(&o->id, base, &st)) {
			o->loaded = true;
			return &o->elf;
		}
	}
	if (kft_elf_open(own, path, NULL))
		return NULL;
	if (nread == MAX_READ)
		return own;
	read_objects[nread] = (struct read_object){ kft_object_id(base, &st), true, *own };
	return &read_objects[nread++].elf;
}

/* Let go of the symbols of the objects a pass did not see. */
static KFT_NOTRACE void forget_unloaded(void)
{
	int kept = 0;

	for (int i = 0; i < nread; i++) {
		if (!read_objects[i].loaded) {
			kft_elf_close(&read_objects[i].elf);
			continue;
		}
		read_objects[i].loaded = false;
		read_objects[kept++] = read_objects[i];
	}
	nread = kept;
}

static KFT_NOTRACE int resolve_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct names *names = arg;
	char real[PATH_MAX];
	const char *path = kft_object_path(info, real, sizeof(real));
	struct kft_elf own, *elf;

	(void)size;
	if (!path || !(elf = object_symbols(info->dlpi_addr, path, &own)))
		return 0;
	/* (many names, as kft record -a gives: each by a binary search) */
	if (names->n > 16 && !elf->by_name)
		kft_elf_index_names(elf);
	for (size_t i = 0; i < names->n; i++)
		resolve_name(names, &names->ctx[i], elf, info->dlpi_addr);
	for (size_t i = 0; i < names->nhex; i++)
		if (names->hex[i] >= info->dlpi_addr)
			add_range(names, elf, names->hex[i] - info->dlpi_addr, info->dlpi_addr);
	if (elf == &own)
		kft_elf_close(&own);
	return 0;
}

static KFT_NOTRACE int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The configured function holding addr, or addr. With -pg the hook may
 * only know an address inside the function. */
KFT_NOTRACE uint64_t kft_config_func_at(uint64_t addr)
{
	const struct kft_range *r = __atomic_load_n(&kft_rt.ranges, __ATOMIC_ACQUIRE);
	size_t lo = 0, hi = __atomic_load_n(&kft_rt.nranges, __ATOMIC_ACQUIRE);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < r[mid].start)
			hi = mid;
		else if (addr >= r[mid].end)
			lo = mid + 1;
		else
			return r[mid].start;
	}
	return addr;
}

static KFT_NOTRACE int first_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	*(uint64_t *)arg = info->dlpi_addr;	/* the program comes first */
	return 1;
}

/*
 * A config's hex address, for this process. For a position-independent
 * program it is the link-time address nm and `kft sym2addr` print: where
 * nothing is loaded at the address itself, it is the program's own, moved
 * by where the program was loaded. (An address given as it is at run time,
 * ASLR off, is inside a loaded object and stays.)
 */
static KFT_NOTRACE uint64_t relocate(uint64_t addr)
{
	uint64_t base = 0;
	Dl_info info;

	if (dladdr((void *)(uintptr_t)addr, &info))
		return addr;
	dl_iterate_phdr(first_object, &base);
	return addr + base;
}

static KFT_NOTRACE void set_trigger(struct rt_trigger *rt, const struct kft_trigger *t)
{
	rt->type = t->type;
	rt->ns = t->usecs * 1000;
	rt->naddrs = 0;
	if ((t->type == KFT_TRIGGER_ENTRY || t->type == KFT_TRIGGER_EXIT) && !t->func.name)
		rt->addrs[rt->naddrs++] = relocate(t->func.addr);
}

/* A list's functions: names and globs to look up, addresses as given. */
static KFT_NOTRACE void list_refs(struct names *names, uint64_t *hex, const struct kft_func_ref *refs,
				  size_t n, struct addr_list *list)
{
	for (size_t i = 0; i < n; i++) {
		if (!refs[i].name) {
			push_addr(list, relocate(refs[i].addr));
			hex[names->nhex++] = relocate(refs[i].addr);
			continue;
		}
		names->ctx[names->n++] = (struct resolve_ctx){ refs[i].name, NULL, list };
	}
}

/* Publish a list, sorted, before the old one goes (another thread may
 * still read the old one: it is kept). */
static KFT_NOTRACE void publish(struct addr_list *l, uint64_t **at, size_t *n)
{
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_u64);
	__atomic_store_n(n, 0, __ATOMIC_RELEASE);
	__atomic_store_n(at, l->v, __ATOMIC_RELEASE);
	__atomic_store_n(n, l->n, __ATOMIC_RELEASE);
}

static KFT_NOTRACE int cmp_args_fn(const void *a, const void *b)
{
	const struct kft_args_fn *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The args statement's table: each address with what to save of it; an
 * address named twice (-A f and -R f) gets both asks. lists[i] holds the
 * addresses of the statement's function i. Published as publish() does. */
static KFT_NOTRACE void publish_args(const struct kft_config *cfg, const struct addr_list *lists)
{
	struct kft_args_fn *v;
	size_t n = 0, total = 0;

	for (size_t i = 0; i < cfg->args.n; i++)
		total += lists[i].n;
	v = calloc(total ? total : 1, sizeof(*v));
	if (!v)
		return;
	for (size_t i = 0; i < cfg->args.n; i++)
		for (size_t k = 0; k < lists[i].n; k++)
			v[n++] = (struct kft_args_fn){ lists[i].v[k], cfg->argspecs[i] };
	qsort(v, n, sizeof(*v), cmp_args_fn);
	total = n;
	n = 0;
	for (size_t i = 0; i < total; i++) {
		if (n && v[n - 1].addr == v[i].addr) {
			kft_argspec_merge(&v[n - 1].spec, &v[i].spec);
			continue;
		}
		v[n++] = v[i];
	}
	__atomic_store_n(&kft_rt.nargs, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&kft_rt.args, v, __ATOMIC_RELEASE);	/* old: kept */
	__atomic_store_n(&kft_rt.nargs, n, __ATOMIC_RELEASE);
}

static pthread_mutex_t resolve_lock = PTHREAD_MUTEX_INITIALIZER;

/* (Re)compute the addresses of the config's functions in this image:
 * the caller holds resolve_lock. */
static KFT_NOTRACE void resolve_locked(void)
{
	const struct kft_config *cfg = &kft_rt.cfg;
	size_t nrefs = 2 + cfg->nfuncs + cfg->skip_list.n + cfg->graph.n + cfg->args.n;
	struct resolve_ctx *ctx = calloc(nrefs, sizeof(*ctx));
	uint64_t *hex = calloc(nrefs, sizeof(*hex));
	struct names names = { ctx, 0, hex, 0, NULL, 0, 0 };
	struct addr_list funcs = { 0 }, notrace = { 0 }, graph = { 0 };
	struct addr_list *args = calloc(cfg->args.n ? cfg->args.n : 1, sizeof(*args));

	if (!ctx || !hex || !args) {
		free(ctx);
		free(hex);
		free(args);
		return;
	}
	if (cfg->start.func.addr)
		hex[names.nhex++] = relocate(cfg->start.func.addr);
	if (cfg->stop.func.addr)
		hex[names.nhex++] = relocate(cfg->stop.func.addr);
	set_trigger(&kft_rt.start, &cfg->start);
	set_trigger(&kft_rt.stop, &cfg->stop);
	if (cfg->start.func.name)
		ctx[names.n++] = (struct resolve_ctx){ cfg->start.func.name, &kft_rt.start, NULL };
	if (cfg->stop.func.name)
		ctx[names.n++] = (struct resolve_ctx){ cfg->stop.func.name, &kft_rt.stop, NULL };
	list_refs(&names, hex, cfg->funcs, cfg->nfuncs, &funcs);
	list_refs(&names, hex, cfg->skip_list.refs, cfg->skip_list.n, &notrace);
	list_refs(&names, hex, cfg->graph.refs, cfg->graph.n, &graph);
	for (size_t i = 0; i < cfg->args.n; i++)
		list_refs(&names, hex, &cfg->args.refs[i], 1, &args[i]);
	if (names.n || names.nhex) {
		dl_iterate_phdr(resolve_object, &names);
		forget_unloaded();
	}
	if (names.nranges)
		qsort(names.ranges, names.nranges, sizeof(*names.ranges), cmp_u64);
	__atomic_store_n(&kft_rt.nranges, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&kft_rt.ranges, names.ranges, __ATOMIC_RELEASE);	/* old: kept */
	__atomic_store_n(&kft_rt.nranges, names.nranges, __ATOMIC_RELEASE);
	/* a list is published before the flag that has the hooks read it;
	 * a new run's config may have none where the old one had one */
	publish(&funcs, &kft_rt.funcs, &kft_rt.nfuncs);
	kft_rt.has_funclist = cfg->has_funclist;
	publish(&notrace, &kft_rt.notrace, &kft_rt.nnotrace);
	publish(&graph, &kft_rt.graph, &kft_rt.ngraph);
	kft_rt.has_graph = cfg->graph.set;
	kft_rt.max_depth = cfg->max_depth;
	publish_args(cfg, args);
	for (size_t i = 0; i < cfg->args.n; i++)
		free(args[i].v);
	free(args);
	free(ctx);
	free(hex);
	kft_update_plain();
}

KFT_NOTRACE void kft_resolve_config(void)
{
	pthread_mutex_lock(&resolve_lock);
	resolve_locked();
	pthread_mutex_unlock(&resolve_lock);
}

/* After any change to what the hooks must check. */
KFT_NOTRACE void kft_update_plain(void)
{
	kft_rt.plain = !kft_rt.has_funclist && !kft_rt.cfg.noints && !kft_rt.cfg.onlyints &&
		       !kft_rt.cfg.cpus_set &&
		       !kft_rt.cfg.skip_list.set && !kft_rt.has_graph && !kft_rt.max_depth &&
		       kft_rt.stop.type == KFT_TRIGGER_NONE && !kft_rt.overwrite &&
		       !kft_hooks_timed && kft_clock.use_tsc &&
		       (!kft_rt.maxtime_ns || kft_rt.maxtime_ns >= kft_rt.mintime_ns);
	kft_rt.time_span = (kft_rt.maxtime_ns ? kft_rt.maxtime_ns : UINT64_MAX) - kft_rt.mintime_ns;
}

/* The trace's config, as kft record or kft config checked it; a broken
 * one means "trace all". A kernel trace's config is the kernel's: the
 * program then has its own in user-config. */
static KFT_NOTRACE void read_config(struct kft_config *cfg)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d/user-config", kft_dir());
	if (access(path, R_OK))
		snprintf(path, sizeof(path), "/proc/self/fd/%d/config", kft_dir());
	if (kft_config_load(cfg, path, NULL))
		kft_config_init(cfg);
}

/* What the hooks take from the config besides its functions. */
static KFT_NOTRACE void take_limits(const struct kft_config *cfg)
{
	/* KFT's log had a size; ours grows unless one is asked for (a ring
	 * always has one) */
	kft_rt.max_records = cfg->logentries_set || cfg->overwrite ? cfg->logentries
								   : KFT_MAX_THREAD_RECORDS;
	kft_rt.autorepeat = cfg->autorepeat;
	kft_rt.mintime_ns = cfg->mintime * 1000;
	kft_rt.maxtime_ns = cfg->maxtime * 1000;
}

/* This process image has loaded run id's config: kft config waits for
 * it. */
static KFT_NOTRACE void say_loaded(uint32_t id)
{
	uint32_t loaded = __atomic_load_n(&kft_rt.ctl->run_loaded, __ATOMIC_ACQUIRE);

	while (loaded < id &&
	       !__atomic_compare_exchange_n(&kft_rt.ctl->run_loaded, &loaded, id, true,
					    __ATOMIC_RELEASE, __ATOMIC_ACQUIRE))
		;
}

KFT_NOTRACE void kft_load_config(void)
{
	kft_rt.run_id = __atomic_load_n(&kft_rt.ctl->run_id, __ATOMIC_ACQUIRE);
	read_config(&kft_rt.cfg);
	/* (a kft config that raised the id just before this read has its
	 * config read here, and the helper will not load it again: said now) */
	say_loaded(kft_rt.run_id);
	kft_rt.overwrite = kft_rt.cfg.overwrite;
	take_limits(&kft_rt.cfg);
	kft_resolve_config();
}

/*
 * `kft config` installed a new run: it stopped the old one (no call is
 * logged while this runs), wrote the new config and raised the control
 * file's run id, and waits for run_loaded to reach it before it primes
 * the new run. The helper thread calls this between its other jobs.
 * Whether the log is a ring cannot change (kft config refuses that).
 */
KFT_NOTRACE void kft_reload_follow(void)
{
	uint32_t want = __atomic_load_n(&kft_rt.ctl->run_id, __ATOMIC_ACQUIRE);
	struct kft_config fresh, old;

	if (want == kft_rt.run_id)
		return;
	read_config(&fresh);
	pthread_mutex_lock(&resolve_lock);
	old = kft_rt.cfg;
	fresh.overwrite = kft_rt.overwrite;
	kft_rt.cfg = fresh;
	take_limits(&kft_rt.cfg);
	resolve_locked();
	pthread_mutex_unlock(&resolve_lock);
	kft_config_release(&old);
	kft_rt.run_id = want;
	say_loaded(want);
}
