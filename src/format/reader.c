// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/grow.h"
#include "args-file.h"
#include "call-args.h"
#include "enum-defs.h"
#include "inherited.h"
#include "reader.h"
#include "text-log.h"
#include "thread-records.h"
#include "trace-files.h"

static char *path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* Read a small whole file into a NUL-terminated buffer. */
static char *slurp(const char *path, size_t max, size_t *len, struct kft_error *err)
{
	struct stat st;
	char *buf;
	size_t got = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		kft_error_set(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || (size_t)st.st_size > max) {
		kft_error_set(err, "%s: unexpected size", path);
		close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		kft_error_set(err, "%s: out of memory", path);
		close(fd);
		return NULL;
	}
	while (got < (size_t)st.st_size && (n = read(fd, buf + got, (size_t)st.st_size - got)) > 0)
		got += (size_t)n;
	close(fd);
	buf[got] = '\0';
	if (len)
		*len = got;
	return buf;
}

static int read_control(struct kft_trace *tr, struct kft_error *err)
{
	char *path = path_join(tr->dir, KFT_CONTROL_FILE);
	size_t len = 0;
	char *buf;
	int ret = -1;

	if (!path)
		return kft_error_set(err, "out of memory");
	buf = slurp(path, 1 << 16, &len, err);
	if (!buf) {
		if (access(tr->dir, F_OK))
			kft_error_set(err, "%s: no such trace directory (record one with `kft record`)",
				      tr->dir);
		else if (access(path, F_OK) && !kft_not_a_program(tr->dir, err))
			kft_error_set(err, "%s: not a kft trace directory (it has no control file)",
				      tr->dir);
		goto out;
	}
	if (len < KFT_CONTROL_SIZE_OLDEST ||
	    memcmp(buf, KFT_CONTROL_MAGIC, sizeof(KFT_CONTROL_MAGIC))) {
		kft_error_set(err, "%s: not a kft control file (truncated or corrupt)", path);
		goto out;
	}
	memset(&tr->ctl, 0, sizeof(tr->ctl));
	memcpy(&tr->ctl, buf, len < sizeof(tr->ctl) ? len : sizeof(tr->ctl));
	if (tr->ctl.size > len) {
		kft_error_set(err, "%s: not a kft control file (truncated or corrupt)", path);
		goto out;
	}
	if (tr->ctl.version < KFT_FORMAT_OLDEST || tr->ctl.version > KFT_FORMAT_VERSION ||
	    tr->ctl.size < KFT_CONTROL_SIZE_OLDEST || tr->ctl.size > sizeof(tr->ctl)) {
		kft_error_set(err, "%s: trace format version %u, this kft reads versions %u to %u",
			      path, tr->ctl.version, KFT_FORMAT_OLDEST, KFT_FORMAT_VERSION);
		goto out;
	}
	/* (an older struct: its newer fields were not measured) */
	memset((char *)&tr->ctl + tr->ctl.size, 0, sizeof(tr->ctl) - tr->ctl.size);
	ret = 0;
out:
	free(buf);
	free(path);
	return ret;
}

static int read_config(struct kft_trace *tr, struct kft_error *err)
{
	char *path = path_join(tr->dir, KFT_CONFIG_FILE);
	size_t len = 0;
	int ret;

	if (!path)
		return kft_error_set(err, "out of memory");
	tr->config_text = slurp(path, 1 << 20, &len, err);
	ret = tr->config_text ? kft_config_parse(&tr->cfg, tr->config_text, len, path, err) : -1;
	free(path);
	return ret;
}

/* unread: the records are not read (KFT_OPEN_NO_RECORDS), nor the .kfz */
static int check_thread(struct kft_thread_file *th, const char *path, bool unread,
			struct kft_error *err)
{
	const struct kft_thread_hdr *h = &th->hdr;
	uint64_t size = th->map_size;

	if (memcmp(h->magic, KFT_THREAD_MAGIC, sizeof(KFT_THREAD_MAGIC)))
		return kft_error_set(err, "%s: not a kft thread file (bad magic)", path);
	if (h->version < KFT_FORMAT_OLDEST || h->version > KFT_FORMAT_VERSION)
		return kft_error_set(err, "%s: thread file format version %u, this kft reads "
				     "versions %u to %u", path, h->version, KFT_FORMAT_OLDEST,
				     KFT_FORMAT_VERSION);
	if (h->hdr_size != sizeof(*h) || h->rec_size != sizeof(struct kft_rec) ||
	    h->frame_size != sizeof(struct kft_frame))
		return kft_error_set(err, "%s: unsupported thread file layout", path);
	if (h->shadow_off < sizeof(*h) || h->shadow_off > size ||
	    h->shadow_cap > (size - h->shadow_off) / sizeof(struct kft_frame) ||
	    h->shadow_off % 8)
		return kft_error_set(err, "%s: corrupt: shadow stack outside the file", path);
	if (h->ring && (h->overwrite || (h->ring & (h->ring - 1)) || h->ring % KFT_ZCHUNK_RECS))
		return kft_error_set(err, "%s: corrupt: a ring of %llu records", path,
				     (unsigned long long)h->ring);
	if (h->records_off < sizeof(*h) || h->records_off > size ||
	    kft_rec_slots(h) > (size - h->records_off) / sizeof(struct kft_rec) ||
	    h->records_off % 8)
		return kft_error_set(err, "%s: corrupt: records outside the file "
				     "(truncated?)", path);
	if (h->sites_off < sizeof(*h) || h->sites_off > size || h->sites_off % 8 ||
	    h->nsites > h->sites_cap || h->sites_cap > (size - h->sites_off) / sizeof(struct kft_site))
		return kft_error_set(err, "%s: corrupt: call sites outside the file "
				     "(truncated?)", path);
	if (h->overwrite && !h->capacity && h->head)
		return kft_error_set(err, "%s: corrupt: records in an empty ring", path);
	if (unread)
		return 0;
	/* the records past the .kfz's must be in the file */
	if (!h->overwrite && h->head > h->capacity && h->head > th->zcount && th->z)
		return kft_error_set(err, "%s: %llu records, of which its .kfz holds %llu and "
				     "the file %llu: the .kfz is cut short or damaged", path,
				     (unsigned long long)h->head, (unsigned long long)th->zcount,
				     (unsigned long long)h->capacity);
	if (!h->overwrite && h->head > h->capacity && h->head > th->zcount)
		return kft_error_set(err, "%s: corrupt: %llu records in a log of %llu%s", path,
				     (unsigned long long)h->head, (unsigned long long)h->capacity,
				     h->capacity ? "" : " (its .kfz is missing)");
	/* a ring is written over only behind its .kfz */
	if (h->ring && h->head > th->zcount + h->ring)
		return kft_error_set(err, "%s: %llu records, of which its .kfz holds %llu and "
				     "its ring the last %llu: the .kfz is cut short or damaged",
				     path, (unsigned long long)h->head,
				     (unsigned long long)th->zcount, (unsigned long long)h->ring);
	return 0;
}

/* A thread file that cannot be read: keep why, go on with the others. */
static int skip_thread(struct kft_trace *tr, size_t nfiles, struct kft_error *err)
{
	if (!tr->skipped && !(tr->skipped = calloc(nfiles, sizeof(*tr->skipped))))
		return kft_error_set(err, "out of memory");
	if (!(tr->skipped[tr->nskipped] = strdup(err->msg)))
		return kft_error_set(err, "out of memory");
	tr->nskipped++;
	return 0;
}

/*
 * A trace being compressed (by the runtime's helper while the program
 * runs, by kft record or kft compress after it) gives a thread's raw
 * records back as it packs them into the .kfz: their pages read as
 * zeros from then on. A reader that took the .kfz's count before would
 * read those zeros as calls. So the raw records are copied at once, and
 * the .kfz looked at again: it holds every record given back before the
 * copy was made (frames are written before the pages go), and those
 * are read from it. Rings and --no-compress logs are never given back.
 */
static int take_raw(struct kft_trace *tr, struct kft_thread_file *th, const char *path,
		    struct kft_error *err)
{
	/* (a .kfz may hold more than the head read says: nothing raw then) */
	uint64_t from = th->zcount, n = th->nrecs > from ? th->nrecs - from : 0, count;
	struct kft_zrecs *z;

	if (tr->held || th->hdr.overwrite || (tr->ctl.mode & KFT_MODE_NO_COMPRESS) || !n)
		return 0;
	if (!(th->raw_copy = malloc(n * sizeof(*th->raw_copy))))
		return kft_error_set(err, "out of memory");
	/* (from a ring, in up to two pieces: what the .kfz has not, the
	 * ring still has, check_thread saw) */
	for (uint64_t i = 0, len; i < n; i += len) {
		uint64_t slot = (from + i) & th->raw_mask;

		len = th->hdr.ring && th->hdr.ring - slot < n - i ? th->hdr.ring - slot : n - i;
		memcpy(th->raw_copy + i, th->recs + slot, len * sizeof(*th->raw_copy));
	}
	th->recs = th->raw_copy;
	th->recs_first = from;
	th->raw_mask = ~(uint64_t)0;
	if (kft_zrecs_open(path, &tr->zcache, &z, &count, err))
		return -1;	/* (the caller frees the copy) */
	if (count < from) {
		kft_zrecs_close(z);	/* (cut back since: the copy has them) */
		return 0;
	}
	kft_zrecs_close(th->z);
	th->z = z;
	th->zcount = count < th->nrecs ? count : th->nrecs;
	return 0;
}

/*
 * A running thread's open frames change under a reader: they are copied
 * at once, and those entered after its newest record's call ended are
 * left out. The header was read before: a call it counts as open may
 * have ended since (its record beyond the head read) and another begun
 * at its depth, and such frames, and those under them, are newer than
 * every record read. (A few calls truly open then go too: the next read
 * has them.) A thread whose process has ended keeps every open frame:
 * they are what it was doing when it died.
 */
static int take_frames(const struct kft_trace *tr, struct kft_thread_file *th,
		       struct kft_error *err)
{
	struct kft_rec_data last;
	uint64_t end;
	int64_t dur;

	if (!th->nframes || tr->ctl.ended_ns || !th->nrecs ||
	    (kill((pid_t)th->hdr.pid, 0) && errno != EPERM))
		return 0;
	if (!(th->frames_copy = malloc(th->nframes * sizeof(*th->frames_copy))))
		return kft_error_set(err, "out of memory");
	memcpy(th->frames_copy, th->frames, th->nframes * sizeof(*th->frames_copy));
	th->frames = th->frames_copy;
	kft_thread_rec(th, th->nrecs - 1, &last);
	dur = kft_dur_decode(last.dur);	/* (< 0: unfinished, a watch row) */
	end = last.entry_ns + (uint64_t)(dur > 0 ? dur : 0);
	for (uint64_t k = 0; k < th->nframes; k++)
		if (th->frames[k].entry_ns > end) {
			th->nframes = k;
			break;
		}
	return 0;
}

static int open_thread(struct kft_trace *tr, const char *name, struct kft_error *err)
{
	struct kft_thread_file *th = &tr->threads[tr->nthreads];
	char *path = path_join(tr->dir, name);
	struct stat st;
	int fd, ret = -1;

	memset(th, 0, sizeof(*th));
	if (!path)
		return kft_error_set(err, "out of memory");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		kft_error_set(err, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(th->hdr)) {
		kft_error_set(err, "%s: truncated thread file (%lld bytes)", path,
			      (long long)st.st_size);
		close(fd);
		goto out;
	}
	th->map_size = (size_t)st.st_size;
	th->map = mmap(NULL, th->map_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (th->map == MAP_FAILED) {
		th->map = NULL;
		kft_error_set(err, "%s: cannot map: %s", path, strerror(errno));
		goto out;
	}
	memcpy(&th->hdr, th->map, sizeof(th->hdr));
	if (!th->hdr.overwrite && !tr->records_unread &&
	    kft_zrecs_open(path, &tr->zcache, &th->z, &th->zcount, err)) {
		munmap(th->map, th->map_size);
		goto out;
	}
	if (check_thread(th, path, tr->records_unread, err)) {
		kft_zrecs_close(th->z);
		munmap(th->map, th->map_size);
		goto out;
	}
	th->name = strdup(name);
	th->recs = (const struct kft_rec *)((const char *)th->map + th->hdr.records_off);
	th->raw_mask = th->hdr.ring ? th->hdr.ring - 1 : ~(uint64_t)0;
	th->sites = (const struct kft_site *)((const char *)th->map + th->hdr.sites_off);
	th->nsites = th->hdr.nsites;
	th->frames = (const struct kft_frame *)((const char *)th->map + th->hdr.shadow_off);
	th->nframes = th->hdr.depth < th->hdr.shadow_cap ? th->hdr.depth : th->hdr.shadow_cap;
	if (th->hdr.overwrite && th->hdr.head > th->hdr.capacity) {
		th->nrecs = th->hdr.capacity;
		th->first = th->hdr.head % th->hdr.capacity;
	} else {
		th->nrecs = th->hdr.head;
	}
#ifdef MADV_POPULATE_READ
	/* fault the used records in at once rather than page by page */
	{
		uint64_t slot = kft_rec_slot(&th->hdr, th->zcount), nraw = th->nrecs - th->zcount;
		uint64_t from, off, len;

		if (th->hdr.ring && slot + nraw > th->hdr.ring) {
			slot = 0;	/* round a ring: all of it */
			nraw = th->hdr.ring;
		}
		from = th->hdr.records_off + slot * sizeof(struct kft_rec);
		off = from & ~(uint64_t)4095;
		len = from - off + nraw * sizeof(struct kft_rec);

		if (!tr->records_unread && th->nrecs > th->zcount && off < th->map_size) {
			if (len > th->map_size - off)
				len = th->map_size - off;
			madvise((char *)th->map + off, len, MADV_POPULATE_READ);
		}
	}
#endif
	if (take_raw(tr, th, path, err) || take_frames(tr, th, err)) {
		kft_zrecs_close(th->z);
		munmap(th->map, th->map_size);
		free(th->raw_copy);
		free(th->name);
		goto out;
	}
	tr->nthreads++;
	ret = 0;
out:
	free(path);
	return ret;
}

static void add_counters(struct kft_counters *sum, const struct kft_counters *c)
{
	const uint64_t *src = (const uint64_t *)c;
	uint64_t *dst = (uint64_t *)sum;

	for (size_t i = 0; i < sizeof(*c) / sizeof(uint64_t); i++)
		dst[i] += src[i];
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int read_threads(struct kft_trace *tr, struct kft_error *err)
{
	DIR *d = opendir(tr->dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int ret = 0;

	if (!d)
		return kft_error_set(err, "%s: %s", tr->dir, strerror(errno));
	while ((de = readdir(d))) {
		if (!kft_is_thread_file_name(de->d_name))
			continue;
		if (n == cap) {
			char **bigger = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof(*names));

			if (!bigger) {
				ret = kft_error_set(err, "out of memory");
				goto out;
			}
			names = bigger;
		}
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			ret = kft_error_set(err, "out of memory");
			goto out;
		}
		n++;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	tr->threads = calloc(n ? n : 1, sizeof(*tr->threads));
	if (!tr->threads) {
		ret = kft_error_set(err, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n && !ret; i++)
		if (open_thread(tr, names[i], err))
			ret = skip_thread(tr, n, err);
	if (!ret && tr->nskipped && !tr->nthreads)
		ret = kft_error_set(err, "%s%s", tr->skipped[0],
				    tr->nskipped > 1 ? " (and every other thread file)" : "");
	/* once every .kfz is open: they share a cache */
	if (!ret)
		ret = kft_inherited_find(tr, err);
	for (size_t i = 0; i < tr->nthreads; i++) {
		struct kft_thread_file *th = &tr->threads[i];

		add_counters(&tr->totals, &th->hdr.counters);
		tr->cpus_filtered += th->hdr.cpus_filtered;
		if (th->hdr.max_stack > tr->max_stack) {
			tr->max_stack = th->hdr.max_stack;
			tr->max_stack_tid = th->hdr.tid;
		}
		for (uint64_t k = 0; k < th->nframes; k++)
			if (th->frames[k].flags & KFT_FRAME_LOGGED)
				tr->nopen++;
	}
out:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return ret;
}

static int by_time(const void *a, const void *b)
{
	const struct kft_mark *x = a, *y = b;

	return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/* len bytes of fd from off into buf, as many as there are: how many. */
static size_t pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t k = pread(fd, (char *)buf + got, len - got, (off_t)(off + got));

		if (k <= 0)
			break;
		got += (size_t)k;
	}
	return got;
}

/* The markers, whole records only, each text cut at its length. A
 * missing file is none. */
static int read_marks(struct kft_trace *tr, struct kft_error *err)
{
	char path[4096];
	struct stat st;
	size_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/marks", tr->dir);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	n = (size_t)st.st_size / sizeof(struct kft_mark);
	tr->marks = calloc(n ? n : 1, sizeof(*tr->marks));
	if (!tr->marks) {
		close(fd);
		return kft_error_set(err, "out of memory");
	}
	tr->nmarks = pread_full(fd, tr->marks, n * sizeof(struct kft_mark), 0) /
		     sizeof(struct kft_mark);
	close(fd);
	for (size_t i = 0; i < tr->nmarks; i++)
		if (tr->marks[i].len > KFT_MARK_TEXT)
			tr->marks[i].len = KFT_MARK_TEXT;
	qsort(tr->marks, tr->nmarks, sizeof(*tr->marks), by_time);
	return 0;
}

/* The records of one thread's .args file (name), added to tr's: 0, 1
 * when the file is damaged (args_error says how; the records before the
 * damage are kept), -1 out of memory. */
static int read_args_file(struct kft_trace *tr, const char *name, size_t *cap,
			  struct kft_error *err)
{
	char path[4096];
	struct kft_args_hdr h;
	struct stat st;
	unsigned char *data = NULL, **more;
	size_t end, had;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", tr->dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    memcmp(h.magic, KFT_ARGS_MAGIC, sizeof(h.magic)) || h.version < 1 ||
	    h.version > KFT_ARGS_VERSION) {
		ret = 1;
		goto out;
	}
	/* (what the header counts past the file's end, as a crash while it
	 * grew may leave, is not read) */
	tr->args_lost += h.lost;
	if (h.version >= 3) {
		struct kft_args_file f;
		bool damaged;

		ret = kft_args_file_open(&f, path, &h, (uint64_t)st.st_size, &damaged);
		if (ret < 0) {
			ret = kft_error_set(err, "out of memory");
			goto out;
		}
		if (!ret) {	/* (1: not in entry order: indexed below) */
			if (kft_grow((void **)&tr->args_files, tr->nargs_files,
				     &tr->args_files_cap, sizeof(*tr->args_files), 16)) {
				kft_args_file_close(&f);
				ret = kft_error_set(err, "out of memory");
				goto out;
			}
			tr->args_files[tr->nargs_files++] = f;
			tr->nargs += f.nrecs;
			ret = damaged;
			goto out;
		}
		kft_args_file_close(&f);
		ret = 0;
	}
	end = (uint64_t)st.st_size > KFT_ARGS_OFF ? (size_t)st.st_size - KFT_ARGS_OFF : 0;
	if (h.end < end)
		end = (size_t)h.end;
	if (!(more = realloc(tr->args_data, (tr->nargs_data + 1) * sizeof(*more))) ||
	    !(data = malloc(end ? end : 1))) {
		if (more)
			tr->args_data = more;
		ret = kft_error_set(err, "out of memory");
		goto out;
	}
	tr->args_data = more;
	tr->args_data[tr->nargs_data++] = data;
	had = tr->nargs_index;
	ret = kft_args_index(&h, data, pread_full(fd, data, end, KFT_ARGS_OFF), &tr->args_index,
			     &tr->nargs_index, cap);
	tr->nargs += tr->nargs_index - had;
	if (ret < 0)
		ret = kft_error_set(err, "out of memory");
out:
	if (ret > 0 && !tr->args_error &&
	    asprintf(&tr->args_error, "%s: damaged (not a kft arguments file, or a record "
		     "cut or mangled)", name) < 0)
		tr->args_error = NULL;
	if (fd >= 0)
		close(fd);
	return ret;
}

/* The enums file, if any, for the values shown by their names (each
 * record points at it: kft_argrec_value has no trace). A damaged line is
 * passed over: its values show as numbers. */
static int read_enums(struct kft_trace *tr, struct kft_error *err)
{
	char *path = path_join(tr->dir, KFT_ENUMS_FILE), *text;
	struct kft_error ignored;

	if (!path)
		return kft_error_set(err, "out of memory");
	text = slurp(path, 64 << 20, NULL, &ignored);
	free(path);
	if (!text)
		return 0;
	if (!(tr->enums = calloc(1, sizeof(*tr->enums))) ||
	    kft_enum_defs_parse(tr->enums, text)) {
		if (!tr->enums)
			free(text);
		return kft_error_set(err, "out of memory");
	}
	for (size_t i = 0; i < tr->nargs_index; i++)
		tr->args_index[i].enums = tr->enums;
	return 0;
}

static int by_thread(const void *a, const void *b)
{
	const struct kft_args_file *x = a, *y = b;

	if (x->session != y->session)
		return x->session < y->session ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* Saved arguments and return values, every thread's, in the order
 * kft_call_args finds them by (call-args.h). */
static int read_args(struct kft_trace *tr, struct kft_error *err)
{
	DIR *d = opendir(tr->dir);
	struct dirent *de;
	size_t cap = 0, len;
	int ret = 0;

	if (!d)
		return kft_error_set(err, "%s: %s", tr->dir, strerror(errno));
	while (!ret && (de = readdir(d))) {
		len = strlen(de->d_name);
		if (strncmp(de->d_name, "thread-", 7) || len < 12 ||
		    strcmp(de->d_name + len - 5, ".args"))
			continue;
		ret = read_args_file(tr, de->d_name, &cap, err) < 0 ? -1 : 0;
	}
	closedir(d);
	if (!ret) {
		kft_args_sort(tr->args_index, tr->nargs_index);
		if (tr->nargs_files)
			qsort(tr->args_files, tr->nargs_files, sizeof(*tr->args_files),
			      by_thread);
	}
	if (!ret && tr->nargs)
		ret = read_enums(tr, err);
	return ret;
}

/* The info file's "status = ..." once the program has ended: how it did.
 * A trace without one (older, or from elsewhere) just does not say. */
static int read_ending(struct kft_trace *tr)
{
	static const char *const ended[] = { "exited ", "killed by signal ", "stopped " };
	struct kft_error ignored;
	char *path = path_join(tr->dir, KFT_INFO_FILE), *info, *line;

	if (!path)
		return -1;
	info = slurp(path, 1 << 16, NULL, &ignored);
	free(path);
	if (!info)
		return 0;
	line = strstr(info, "\nstatus = ");
	if (line) {
		line += strlen("\nstatus = ");
		line[strcspn(line, "\n")] = '\0';
		for (size_t i = 0; i < sizeof(ended) / sizeof(ended[0]); i++)
			if (!strncmp(line, ended[i], strlen(ended[i])) &&
			    !(tr->ended_how = strdup(line))) {
				free(info);
				return -1;
			}
	}
	free(info);
	return 0;
}

int kft_trace_open_as(struct kft_trace *tr, const char *dir, unsigned int flags,
		      struct kft_error *err)
{
	memset(tr, 0, sizeof(*tr));
	tr->held = flags & KFT_OPEN_HELD;
	tr->records_unread = flags & KFT_OPEN_NO_RECORDS;
	kft_config_init(&tr->cfg);
	tr->dir = strdup(dir);
	if (!tr->dir)
		return kft_error_set(err, "out of memory");
	if (read_control(tr, err) || read_config(tr, err) || read_threads(tr, err) ||
	    read_marks(tr, err) || (!(flags & KFT_OPEN_NO_ARGS) && read_args(tr, err))) {
		kft_trace_close(tr);
		return -1;
	}
	if (read_ending(tr)) {
		kft_trace_close(tr);
		return kft_error_set(err, "out of memory");
	}
	/* damaged switches cost the on-CPU figures, not the calls */
	if (!(flags & KFT_OPEN_NO_SWITCHES) && kft_switches_load(&tr->switches, dir, err) &&
	    !(tr->switches_error = strdup(err->msg))) {
		kft_trace_close(tr);
		return kft_error_set(err, "out of memory");
	}
	return 0;
}

int kft_trace_open(struct kft_trace *tr, const char *dir, struct kft_error *err)
{
	return kft_trace_open_as(tr, dir, 0, err);
}

void kft_trace_close(struct kft_trace *tr)
{
	for (size_t i = 0; i < tr->nthreads; i++) {
		munmap(tr->threads[i].map, tr->threads[i].map_size);
		kft_zrecs_close(tr->threads[i].z);
		free(tr->threads[i].raw_copy);
		free(tr->threads[i].frames_copy);
		free(tr->threads[i].name);
		free(tr->threads[i].inherited);
	}
	free(tr->threads);
	kft_zcache_free(tr->zcache);
	kft_switches_free(&tr->switches);
	free(tr->switches_error);
	free(tr->args_error);
	free(tr->ended_how);
	free(tr->marks);
	free(tr->args_index);
	for (size_t i = 0; i < tr->nargs_files; i++)
		kft_args_file_close(&tr->args_files[i]);
	free(tr->args_files);
	for (size_t i = 0; i < tr->nargs_data; i++)
		free(tr->args_data[i]);
	free(tr->args_data);
	if (tr->enums)
		kft_enum_defs_free(tr->enums);
	free(tr->enums);
	for (size_t i = 0; i < tr->nskipped; i++)
		free(tr->skipped[i]);
	free(tr->skipped);
	free(tr->config_text);
	kft_config_release(&tr->cfg);
	free(tr->dir);
	memset(tr, 0, sizeof(*tr));
}
