// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/addrmap.h"
#include "../common/grow.h"
#include "../common/strmap.h"
#include "../format/forks.h"
#include "../format/trace-format.h"
#include "demangle.h"
#include "elf-symtab.h"
#include "saved-symbols.h"
#include "frame-funcs.h"
#include "symbolizer.h"
#include "symmap.h"

/* Addresses in the upper half are the kernel's (x86-64, arm64). */
#define KERNEL_HALF 0xffff800000000000ULL

struct mapping {
	uint64_t start, end, offset;
	size_t file;		/* index in files[] */
	uint32_t epoch;		/* closes before its snapshot */
	uint32_t build;		/* the build mapped: 1 + index in builds[], 0 not known */
};

/* A build-id a snapshot gave for a mapped file. */
struct build_id {
	unsigned char id[64];
	size_t len;
};

/* A maps file as read once (many fork children read their parent's): its
 * snapshots in order, each a run of its mappings. */
struct maps_snap {
	uint64_t ns;		/* 0: lines before any "# kft-maps" (older traces) */
	bool close;
	size_t first, n;	/* in maps_file.maps; their epoch is unset */
};

struct maps_file {
	struct maps_snap *snaps;
	size_t nsnaps;
	struct mapping *maps;
	size_t nmaps;
	int missing;		/* why it could not be opened (errno), or 0 */
};

struct session {
	uint32_t id;
	bool loaded;
	struct mapping *maps;
	size_t nmaps;
	/* when each dlclose came, sorted; used only where a closed library's
	 * addresses went to another file (reused) */
	uint64_t *closes;
	uint32_t ncloses;
	bool reused;
	int missing;		/* its maps file's (said at the first address
				 * that needs it: a kernel session has none) */
	bool warned;
};

struct elf_file {
	char *path;
	bool tried;		/* own opened (at the first address in it) */
	bool ok;
	bool replaced_said;	/* the warning that another build ran */
	size_t saved;		/* its saved module, or SIZE_MAX: own */
	bool own_ok;		/* own is open (saved or not) */
	struct kft_elf own;
};

struct kft_symbolizer {
	char *dir;
	struct kft_addrmap seen;	/* (session, addr) -> index in answers */
	struct kft_symbol *answers;
	bool *found;
	size_t nanswers, cap;
	struct session *sessions;
	size_t nsessions, last;
	struct elf_file *files;
	size_t nfiles;
	struct kft_symmap kallsyms;	/* the trace's kernel symbols, if any */
	bool kallsyms_tried;
	struct kft_saved_symbols saved;	/* what the trace saved, if anything */
	struct kft_forks forks;		/* which image each fork child came from */
	bool forks_loaded;
	struct kft_addrmap maps_at;	/* (0, image) -> index in mfiles */
	struct maps_file *mfiles;
	size_t nmfiles, mfcap;
	struct build_id *builds;
	size_t nbuilds, bcap;
	char **warnings;
	size_t nwarnings;
	size_t ntaken;			/* warnings[0..ntaken) were taken */
	bool raw_names;			/* --no-demangle */
	struct kft_strmap shown;	/* mangled name -> index in names, params */
	char **names;
	char **params;
	size_t nnames;
};

struct kft_symbolizer *kft_symbolizer_new_from_disk(const char *dir, struct kft_error *err)
{
	struct kft_symbolizer *sz = calloc(1, sizeof(*sz));

	if (!sz || !(sz->dir = strdup(dir))) {
		free(sz);
		kft_error_set(err, "out of memory");
		return NULL;
	}
	return sz;
}

static void warn(struct kft_symbolizer *sz, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct kft_symbolizer *sz, const char *fmt, ...)
{
	char **bigger = realloc(sz->warnings, (sz->nwarnings + 1) * sizeof(*bigger));
	va_list ap;

	if (!bigger)
		return;
	sz->warnings = bigger;
	va_start(ap, fmt);
	if (vasprintf(&sz->warnings[sz->nwarnings], fmt, ap) >= 0)
		sz->nwarnings++;
	va_end(ap);
}

static void hex(const unsigned char *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = '\0';
}

/* A saved file that is on disk again, but not the same build. */
static void check_rebuilt(struct kft_symbolizer *sz, const struct kft_saved_module *m)
{
	struct kft_elf now;
	char was[129], is[129];

	if (!m->elf.build_id_len || kft_elf_open_headers(&now, m->path, NULL))
		return;
	if (now.build_id_len != m->elf.build_id_len ||
	    memcmp(now.build_id, m->elf.build_id, now.build_id_len)) {
		hex(m->elf.build_id, m->elf.build_id_len, was);
		hex(now.build_id, now.build_id_len, is);
		warn(sz, "%s has changed since the trace was recorded (build-id %s, now %s); "
			 "its names come from the trace", m->path, was, *is ? is : "none");
	}
	kft_elf_close(&now);
}

struct kft_symbolizer *kft_symbolizer_new(const char *dir, struct kft_error *err)
{
	struct kft_symbolizer *sz = kft_symbolizer_new_from_disk(dir, err);
	struct kft_error bad;

	if (!sz)
		return NULL;
	if (kft_symbols_load(&sz->saved, dir, &bad))
		warn(sz, "%s; names come from the files on disk", bad.msg);
	for (size_t i = 0; i < sz->saved.nmods; i++)
		check_rebuilt(sz, &sz->saved.mods[i]);
	return sz;
}

void kft_symbolizer_set_demangle(struct kft_symbolizer *sz, bool on)
{
	sz->raw_names = !on;
}

/* A C++ name as views show it, and its parameters (each demangled
 * once); or name itself, without. */
static const char *shown_name(struct kft_symbolizer *sz, const char *name, const char **params)
{
	char base[1024], args[1024], *d, **more_names, **more_params;
	uint32_t i;

	*params = NULL;
	if (sz->raw_names || !kft_is_mangled(name))
		return name;
	if (kft_strmap_get(&sz->shown, name, &i)) {
		*params = sz->params[i];
		return sz->names[i];
	}
	if (!(d = kft_demangle(name)))
		return name;
	kft_demangle_base(d, base, sizeof(base));
	kft_demangle_params(d, args, sizeof(args));
	free(d);
	more_names = realloc(sz->names, (sz->nnames + 1) * sizeof(*more_names));
	if (more_names)
		sz->names = more_names;
	more_params = realloc(sz->params, (sz->nnames + 1) * sizeof(*more_params));
	if (more_params)
		sz->params = more_params;
	if (!more_names || !more_params || !(sz->names[sz->nnames] = strdup(base)))
		return name;
	if (!(sz->params[sz->nnames] = *args ? strdup(args) : NULL) && *args) {
		free(sz->names[sz->nnames]);
		return name;
	}
	kft_strmap_put(&sz->shown, name, (uint32_t)sz->nnames);	/* or demangled again */
	*params = sz->params[sz->nnames];
	return sz->names[sz->nnames++];
}

size_t kft_symbolizer_take_warnings(struct kft_symbolizer *sz, char *const **list)
{
	size_t n = sz->nwarnings - sz->ntaken;

	*list = n ? sz->warnings + sz->ntaken : NULL;
	sz->ntaken = sz->nwarnings;
	return n;
}

void kft_symbolizer_free(struct kft_symbolizer *sz)
{
	if (!sz)
		return;
	for (size_t i = 0; i < sz->nsessions; i++) {
		free(sz->sessions[i].maps);
		free(sz->sessions[i].closes);
	}
	for (size_t i = 0; i < sz->nfiles; i++) {
		if (sz->files[i].own_ok)
			kft_elf_close(&sz->files[i].own);
		free(sz->files[i].path);
	}
	for (size_t i = 0; i < sz->nwarnings; i++)
		free(sz->warnings[i]);
	free(sz->warnings);
	kft_symbols_free(&sz->saved);
	kft_forks_free(&sz->forks);
	for (size_t i = 0; i < sz->nmfiles; i++) {
		free(sz->mfiles[i].snaps);
		free(sz->mfiles[i].maps);
	}
	free(sz->mfiles);
	free(sz->builds);
	kft_addrmap_free(&sz->maps_at);
	for (size_t i = 0; i < sz->nnames; i++) {
		free(sz->names[i]);
		free(sz->params[i]);
	}
	free(sz->names);
	free(sz->params);
	kft_strmap_free(&sz->shown);
	free(sz->sessions);
	free(sz->files);
	kft_symmap_free(&sz->kallsyms);
	kft_addrmap_free(&sz->seen);
	free(sz->answers);
	free(sz->found);
	free(sz->dir);
	free(sz);
}

const struct kft_elf *kft_symbolizer_elf_read(const struct kft_symbolizer *sz, const char *path)
{
	for (size_t i = 0; i < sz->nfiles; i++)
		if (!strcmp(sz->files[i].path, path))
			return sz->files[i].saved == SIZE_MAX && sz->files[i].ok ? &sz->files[i].own
										 : NULL;
	return NULL;
}

static size_t file_index(struct kft_symbolizer *sz, const char *path)
{
	struct elf_file *bigger, *f;

	for (size_t i = 0; i < sz->nfiles; i++)
		if (!strcmp(sz->files[i].path, path))
			return i;
	bigger = realloc(sz->files, (sz->nfiles + 1) * sizeof(*bigger));
	if (!bigger)
		return SIZE_MAX;
	sz->files = bigger;
	memset(&sz->files[sz->nfiles], 0, sizeof(*bigger));
	f = &sz->files[sz->nfiles];
	f->path = strdup(path);
	if (!f->path)
		return SIZE_MAX;
	for (size_t i = 0; i < sz->saved.nmods; i++)
		if (!strcmp(sz->saved.mods[i].path, path)) {
			f->saved = i;	/* what the trace saved */
			f->ok = true;
			return sz->nfiles++;
		}
	f->saved = SIZE_MAX;	/* read when an address in it is first asked */
	return sz->nfiles++;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_mapping(const void *a, const void *b)
{
	const struct mapping *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->build != y->build)
		return x->build < y->build ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Whether two mappings are known to be of different builds (each build
 * is in builds[] once). */
static bool other_builds(const struct mapping *a, const struct mapping *b)
{
	return a->build && b->build && a->build != b->build;
}

/* Whether some address was mapped to two files, two places of one
 * file, or two builds of one file, in different snapshots: a closed
 * library's range reused. */
static bool ranges_reused(const struct session *s)
{
	struct mapping *m = malloc((s->nmaps ? s->nmaps : 1) * sizeof(*m));
	size_t n = 0;
	bool reused = false;

	if (!m)
		return false;
	memcpy(m, s->maps, s->nmaps * sizeof(*m));
	qsort(m, s->nmaps, sizeof(*m), cmp_mapping);
	/* every snapshot repeats the same mappings: keep each once */
	for (size_t i = 0; i < s->nmaps; i++)
		if (!n || cmp_mapping(&m[i], &m[n - 1]))
			m[n++] = m[i];
	for (size_t i = 0; i < n && !reused; i++)
		for (size_t j = i + 1; j < n && m[j].start < m[i].end; j++)
			if (m[j].file != m[i].file || other_builds(&m[j], &m[i]) ||
			    m[j].start - m[j].offset != m[i].start - m[i].offset) {
				reused = true;
				break;
			}
	free(m);
	return reused;
}

/* A snapshot's "# build-id ADDR HEX" (line past the "# build-id "):
 * the mappings of the file whose mapping holds ADDR, among the snapshot's
 * last n in mf, are of that build. 0, or -1 if memory ran out. */
static int note_build(struct kft_symbolizer *sz, struct maps_file *mf, size_t n, const char *line)
{
	struct build_id b = { { 0 }, 0 };
	struct mapping *snap = mf->maps + mf->nmaps - n;
	uint64_t addr;
	unsigned int byte;
	int at;
	size_t file = SIZE_MAX, k;

	if (sscanf(line, "%" SCNx64 " %n", &addr, &at) != 1)
		return 0;
	for (line += at; b.len < sizeof(b.id) && sscanf(line, "%2x", &byte) == 1; line += 2)
		b.id[b.len++] = (unsigned char)byte;
	for (size_t i = 0; i < n && file == SIZE_MAX; i++)
		if (addr >= snap[i].start && addr < snap[i].end)
			file = snap[i].file;
	if (!b.len || file == SIZE_MAX)
		return 0;
	/* (each build once: every snapshot names them all again) */
	for (k = 0; k < sz->nbuilds; k++)
		if (sz->builds[k].len == b.len && !memcmp(sz->builds[k].id, b.id, b.len))
			break;
	if (k == sz->nbuilds) {
		if (kft_grow((void **)&sz->builds, sz->nbuilds, &sz->bcap, sizeof(*sz->builds), 16))
			return -1;
		sz->builds[sz->nbuilds++] = b;
	}
	for (size_t i = 0; i < n; i++)
		if (snap[i].file == file)
			snap[i].build = (uint32_t)k + 1;
	return 0;
}

/* Read maps-<id>: snapshots of "start-end perms offset dev inode path",
 * each after a line "# kft-maps NS" or "# kft-maps NS close" (before a
 * dlclose), and its mapped files' "# build-id ADDR HEX"; older traces
 * have no such lines. 0, or -1 if memory ran out. */
static int read_maps(struct kft_symbolizer *sz, uint32_t id, struct maps_file *mf)
{
	char path[4096], line[4352];
	size_t snap_cap = 0, map_cap = 0;
	int ret = 0;
	FILE *f;

	memset(mf, 0, sizeof(*mf));
	snprintf(path, sizeof(path), "%s/maps-%u", sz->dir, id);
	f = fopen(path, "re");
	if (!f) {
		/* a fork child has none until its map changes: its parent's serves */
		if (!kft_forks_find(&sz->forks, id))
			mf->missing = errno;
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		uint64_t start, end, offset, ns;
		char perms[8], file[4096], word[8];
		size_t idx;
		int n;

		n = sscanf(line, "# kft-maps %" SCNu64 " %7s", &ns, word);
		if (n >= 1 || !mf->nsnaps) {
			if (kft_grow((void **)&mf->snaps, mf->nsnaps, &snap_cap, sizeof(*mf->snaps),
				     8)) {
				ret = -1;
				break;
			}
			mf->snaps[mf->nsnaps++] = (struct maps_snap){
				n >= 1 ? ns : 0, n == 2 && !strcmp(word, "close"), mf->nmaps, 0
			};
			if (n >= 1)
				continue;
		}
		if (!strncmp(line, "# build-id ", 11)) {
			if (note_build(sz, mf, mf->snaps[mf->nsnaps - 1].n, line + 11)) {
				ret = -1;
				break;
			}
			continue;
		}
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %4095s", &start,
			   &end, perms, &offset, file) != 5 || start >= end)
			continue;
		/* the vDSO: by the copy the trace holds */
		if (!strcmp(file, "[vdso]"))
			snprintf(file, sizeof(file), "%s/%s", sz->dir, KFT_VDSO_FILE);
		else if (file[0] != '/')
			continue;
		idx = file_index(sz, file);
		if (idx == SIZE_MAX ||
		    kft_grow((void **)&mf->maps, mf->nmaps, &map_cap, sizeof(*mf->maps), 32)) {
			ret = -1;
			break;
		}
		mf->maps[mf->nmaps++] = (struct mapping){ start, end, offset, idx, 0, 0 };
		mf->snaps[mf->nsnaps - 1].n++;
	}
	fclose(f);
	return ret;
}

/* maps-<id> as read once; NULL if memory ran out. */
static const struct maps_file *maps_file(struct kft_symbolizer *sz, uint32_t id)
{
	uint32_t *slot = kft_addrmap_slot(&sz->maps_at, 0, id);
	struct maps_file mf;

	if (!slot)
		return NULL;
	if (*slot != KFT_ADDRMAP_NONE)
		return &sz->mfiles[*slot];
	if (read_maps(sz, id, &mf) ||
	    kft_grow((void **)&sz->mfiles, sz->nmfiles, &sz->mfcap, sizeof(*sz->mfiles), 16)) {
		free(mf.snaps);
		free(mf.maps);
		return NULL;
	}
	sz->mfiles[sz->nmfiles] = mf;
	*kft_addrmap_slot(&sz->maps_at, 0, id) = (uint32_t)sz->nmfiles;
	return &sz->mfiles[sz->nmfiles++];
}

/* Image s gets maps-<id>'s snapshots taken up to until. 0, or -1 if
 * memory ran out. */
static int parse_maps(struct kft_symbolizer *sz, struct session *s, uint32_t id, uint64_t until,
		      size_t *cap, size_t *close_cap)
{
	const struct maps_file *mf = maps_file(sz, id);

	if (!mf)
		return -1;
	for (size_t i = 0; i < mf->nsnaps && mf->snaps[i].ns <= until; i++) {
		const struct maps_snap *sn = &mf->snaps[i];
		/* a snapshot taken before a close holds what the close ends;
		 * the next one is of the epoch after it */
		uint32_t epoch = s->ncloses;

		if (sn->close && !kft_grow((void **)&s->closes, s->ncloses, close_cap,
					   sizeof(*s->closes), 16))
			s->closes[s->ncloses++] = sn->ns;
		for (size_t k = 0; k < sn->n; k++) {
			if (kft_grow((void **)&s->maps, s->nmaps, cap, sizeof(*s->maps), 32))
				return -1;
			s->maps[s->nmaps] = mf->maps[sn->first + k];
			s->maps[s->nmaps++].epoch = epoch;
		}
	}
	return 0;
}

/* The snapshots of image id and, first, of the images it was forked from,
 * each as it stood when the next one down the line was forked. */
static int parse_lineage(struct kft_symbolizer *sz, struct session *s, uint32_t id,
			 uint64_t until, size_t *cap, size_t *close_cap, int depth)
{
	const struct kft_fork *fork = kft_forks_find(&sz->forks, id);

	if (fork && depth < 1024 &&
	    parse_lineage(sz, s, fork->parent, fork->forked_ns < until ? fork->forked_ns : until,
			  cap, close_cap, depth + 1))
		return -1;
	return parse_maps(sz, s, id, until, cap, close_cap);
}

static void load_session(struct kft_symbolizer *sz, struct session *s)
{
	size_t cap = 0, close_cap = 0;

	s->loaded = true;
	if (!sz->forks_loaded) {
		kft_forks_load(&sz->forks, sz->dir);
		sz->forks_loaded = true;
	}
	parse_lineage(sz, s, s->id, UINT64_MAX, &cap, &close_cap, 0);
	s->missing = maps_file(sz, s->id) ? maps_file(sz, s->id)->missing : 0;
	s->reused = s->ncloses && ranges_reused(s);
	if (s->reused)
		qsort(s->closes, s->ncloses, sizeof(*s->closes), cmp_u64);
}

static struct session *get_session(struct kft_symbolizer *sz, uint32_t id)
{
	struct session *bigger;

	/* the views ask per call, mostly of the same image as the last */
	if (sz->last < sz->nsessions && sz->sessions[sz->last].id == id)
		return &sz->sessions[sz->last];
	for (size_t i = 0; i < sz->nsessions; i++)
		if (sz->sessions[i].id == id) {
			sz->last = i;
			return &sz->sessions[i];
		}
	bigger = realloc(sz->sessions, (sz->nsessions + 1) * sizeof(*bigger));
	if (!bigger)
		return NULL;
	sz->sessions = bigger;
	memset(&bigger[sz->nsessions], 0, sizeof(*bigger));
	bigger[sz->nsessions].id = id;
	load_session(sz, &bigger[sz->nsessions]);
	return &sz->sessions[sz->nsessions++];
}

uint64_t kft_symbolizer_image(struct kft_symbolizer *sz, uint32_t session, uint64_t ns)
{
	const struct session *s;
	uint32_t lo = 0, hi;

	if (!sz || !(s = get_session(sz, session)) || !s->reused)
		return session;
	/* the epoch: how many closes came before ns */
	hi = s->ncloses;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->closes[mid] < ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return KFT_IMAGE(session, lo);
}

uint32_t kft_symbolizer_epochs(struct kft_symbolizer *sz, uint32_t session)
{
	const struct session *s = sz ? get_session(sz, session) : NULL;

	return s && s->reused ? s->ncloses + 1 : 1;
}

/* f's file as it is on disk, opened at the first call. */
static bool open_own(struct kft_symbolizer *sz, struct elf_file *f)
{
	if (!f->tried) {
		f->tried = true;
		f->own_ok = !kft_elf_open(&f->own, f->path, NULL);
		if (f->own_ok)
			kft_elf_add_planned_functions(&f->own, sz->dir, f->path);
	}
	return f->own_ok;
}

static bool lookup(struct kft_symbolizer *sz, uint64_t image, uint64_t addr,
		   struct kft_symbol *sym);

/* Each address is looked up once; the answer is kept. */
bool kft_symbolize(struct kft_symbolizer *sz, uint64_t image, uint64_t addr,
		   struct kft_symbol *sym)
{
	uint32_t *slot = kft_addrmap_slot(&sz->seen, image, addr);
	bool found;

	if (slot && *slot != KFT_ADDRMAP_NONE) {
		*sym = sz->answers[*slot];
		return sz->found[*slot];
	}
	found = lookup(sz, image, addr, sym);
	if (!slot)
		return found;
	if (sz->nanswers == sz->cap) {
		size_t cap = sz->cap ? 2 * sz->cap : 256;
		struct kft_symbol *a = realloc(sz->answers, cap * sizeof(*a));
		bool *f;

		if (!a)
			return found;
		sz->answers = a;
		f = realloc(sz->found, cap * sizeof(*f));
		if (!f)
			return found;
		sz->found = f;
		sz->cap = cap;
	}
	sz->answers[sz->nanswers] = *sym;
	sz->found[sz->nanswers] = found;
	*kft_addrmap_slot(&sz->seen, image, addr) = (uint32_t)sz->nanswers++;
	return found;
}

bool kft_symbolize_return(struct kft_symbolizer *sz, uint64_t image, uint64_t ret,
			  struct kft_symbol *sym)
{
	bool found;

	if (!ret)
		return kft_symbolize(sz, image, ret, sym);
	found = kft_symbolize(sz, image, ret - 1, sym);
	if (found || sym->module)
		sym->offset++;
	return found;
}

/* A kernel address, through the kallsyms saved with the trace. */
static bool lookup_kernel(struct kft_symbolizer *sz, uint64_t addr, struct kft_symbol *sym)
{
	const struct kft_mapsym *ks;

	if (!sz->kallsyms_tried) {
		char path[4096];

		sz->kallsyms_tried = true;
		snprintf(path, sizeof(path), "%s/kallsyms", sz->dir);
		if (access(path, R_OK) || kft_symmap_load(&sz->kallsyms, path, NULL))
			kft_symmap_free(&sz->kallsyms);
	}
	ks = sz->kallsyms.syms ? kft_symmap_lookup(&sz->kallsyms, addr) : NULL;
	if (!ks)
		return false;
	sym->name = ks->name;
	sym->offset = addr - ks->addr;
	sym->sym_addr = ks->addr;
	sym->module = ks->module ? ks->module : "[kernel]";
	return true;
}

/* The first of s's mappings (in order of epoch) of an epoch after
 * epoch - 1. */
static size_t epoch_start(const struct session *s, uint32_t epoch)
{
	size_t lo = 0, hi = s->nmaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->maps[mid].epoch < epoch)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The newest of s's mappings [lo, hi) that holds addr, or NULL. */
static const struct mapping *newest_holding(const struct session *s, size_t lo, size_t hi,
					     uint64_t addr)
{
	for (size_t i = hi; i-- > lo;)
		if (addr >= s->maps[i].start && addr < s->maps[i].end)
			return &s->maps[i];
	return NULL;
}

/* The mapping of addr in session s: of the epoch asked for if it is
 * there (found among that epoch's alone: a program that opens and closes
 * a library thousands of times has as many epochs), else the newest. */
static const struct mapping *mapping_of(const struct session *s, uint32_t epoch, uint64_t addr)
{
	const struct mapping *m = NULL;

	if (s->reused && epoch < UINT32_MAX)
		m = newest_holding(s, epoch_start(s, epoch), epoch_start(s, epoch + 1), addr);
	return m ? m : newest_holding(s, 0, s->nmaps, addr);
}

/* Whether m mapped another build of f's file than elf, the one names
 * come from: the file was rebuilt or replaced while the program ran. Its
 * calls are then left as addresses, not given the new build's names. */
static bool other_build(struct kft_symbolizer *sz, struct elf_file *f, const struct kft_elf *elf,
			const struct mapping *m)
{
	const struct build_id *b = m->build ? &sz->builds[m->build - 1] : NULL;
	char ran[129], named[129];

	if (!b || (b->len == elf->build_id_len && !memcmp(b->id, elf->build_id, b->len)))
		return false;
	if (!f->replaced_said) {
		f->replaced_said = true;
		hex(b->id, b->len, ran);
		hex(elf->build_id, elf->build_id_len, named);
		warn(sz, "%s was rebuilt or replaced while the program ran (build-id %s ran, %s "
			 "is the one read): the calls into the other build show as addresses",
		     f->path, ran, *named ? named : "none");
	}
	return true;
}

static bool lookup(struct kft_symbolizer *sz, uint64_t image, uint64_t addr,
		   struct kft_symbol *sym)
{
	const struct mapping *m;
	const struct kft_elf_sym *es;
	const struct kft_elf *elf;
	struct elf_file *f;
	struct session *s;
	uint64_t vaddr;

	memset(sym, 0, sizeof(*sym));
	if (addr >= KERNEL_HALF)
		return lookup_kernel(sz, addr, sym);
	if (!addr)
		return false;	/* no address: a kernel call's caller not known */
	s = get_session(sz, (uint32_t)image);
	if (s && s->missing && !s->warned) {
		s->warned = true;
		warn(sz, "%s/maps-%u: %s; the calls of that process show as addresses", sz->dir,
		     s->id, strerror(s->missing));
	}
	m = s ? mapping_of(s, (uint32_t)(image >> 32), addr) : NULL;
	if (!m)
		return false;
	f = &sz->files[m->file];
	sym->module = f->path;
	sym->offset = addr - m->start + m->offset;	/* file offset, until a symbol is found */
	if (f->saved == SIZE_MAX)
		f->ok = open_own(sz, f);
	elf = f->saved == SIZE_MAX ? &f->own : &sz->saved.mods[f->saved].elf;
	if (!f->ok || other_build(sz, f, elf, m) ||
	    !kft_elf_offset_to_vaddr(elf, addr - m->start + m->offset, &vaddr))
		return false;
	es = kft_elf_lookup(elf, vaddr);
	/* a function the saved names lack (called after kft record saved
	 * them: a process it did not wait for) is named from the file, if
	 * that is still the build that ran */
	if (!es && f->saved != SIZE_MAX && open_own(sz, f) && elf->build_id_len &&
	    f->own.build_id_len == elf->build_id_len &&
	    !memcmp(f->own.build_id, elf->build_id, elf->build_id_len) &&
	    kft_elf_offset_to_vaddr(&f->own, addr - m->start + m->offset, &vaddr))
		es = kft_elf_lookup(&f->own, vaddr);
	if (!es)
		return false;
	sym->name = shown_name(sz, es->name, &sym->params);
	sym->offset = vaddr - es->addr;
	sym->sym_addr = es->addr;
	sym->source = es->file;
	return true;
}
