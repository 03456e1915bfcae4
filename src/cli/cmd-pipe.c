// SPDX-License-Identifier: GPL-2.0-only
/*
 * kft pipe: a running trace's calls as they end, each printed once, as
 * ftrace's trace_pipe streamed the kernel's. Records are written when
 * calls end, so a call shows as soon as it has ended; the stream polls
 * the thread files (new ones too) and remembers how far it read each.
 *
 * The runtime's helper may compress finished records and give their raw
 * pages back while we read: a page given back reads as zeros, which no
 * record is, so a zero record means "read it again from the compressed
 * file", which the next poll opens. kft record cuts a finished thread's
 * file down by writing it anew and renaming it over the old one, so a
 * mapping stays whole; a file cut in place all the same (by an older kft)
 * raises SIGBUS past its new end, which takes us back to poll again, with
 * nothing printed twice (a call counts as printed only once it is). When the program has ended, kft
 * record finishes the trace (compressing and cutting the files) holding
 * the directory's lock; the stream waits for the lock, then reads the
 * rest, and the calls still open at the end, from the finished trace.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../views/views.h"
#include "../record/target.h"
#include "cli.h"
#include "../format/read-progress.h"
#include "../format/trace-files.h"

static const char usage[] =
	"usage: kft pipe [-t log|function|function_graph] [--ns] [DIR|PID]\n"
	"\n"
	"Print the calls of the trace in DIR (default kft.data), or of the traced\n"
	"process PID, as they end, each once, while the program runs, as ftrace's\n"
	"trace_pipe; end when the program has ended and every call is printed, or\n"
	"on Ctrl-C. A call shows when it ends (records are written then), so calls\n"
	"come in the order they ended, thread by thread as they are read.\n"
	"\n"
	"  -t log             KFT's log rows: Entry, Delta, PID, Function, Caller\n"
	"                     (the default; `kft kd -` reads them)\n"
	"  -t function        ftrace's function tracer lines\n"
	"  -t function_graph  each call as a leaf, 'f();' with its duration,\n"
	"                     indented by its depth\n"
	"  --ns               log rows in nanoseconds\n"
	"  --no-demangle      C++ and Rust names as the symbol table has them\n"
	"\n"
	"The markers the program makes (kft_printf, kft_mark) come as they are\n"
	"read, each once, as '#' rows or '/* text */' lines.\n";

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* A file cut down under our mapping, while a poll reads it. */
static sigjmp_buf cut_down;
static volatile sig_atomic_t reading;

static void on_bus(int sig)
{
	if (reading)
		siglongjmp(cut_down, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

struct pipe {
	const char *dir;
	int layout;		/* 0: log rows; else the ftrace tracer + 1 */
	struct kft_log_opts log;
	struct kft_ftrace_opts ft;
	struct kft_read_progress_set seen;	/* how far each thread file is printed */
	struct kft_symbolizer *sz;	/* kept while the memory maps stay as they were */
	uint64_t maps_seen;		/* what they were: see maps_now() */
	uint64_t printed;
	uint64_t marks_read;	/* records of the marks file printed */
};

/* A record's raw page given back after compression: all zeros. */
static bool given_back(const struct kft_thread_file *th, uint64_t j)
{
	const struct kft_rec *r;

	if (j < th->zcount)
		return false;
	r = kft_thread_raw(th, j);
	return !r->entry_depth && !r->dur && !r->site_flags;
}

static void print_call(struct pipe *p, const struct kft_trace *tr, struct kft_symbolizer *sz,
		       const struct kft_call *c)
{
	if (p->layout)
		kft_view_ftrace_row(stdout, tr, sz, c, &p->ft);
	else
		kft_view_log_row(stdout, c, kft_trace_base_ns(tr), sz, &p->log);
	p->printed++;
}

/* The markers appended since the last poll, in the order they were
 * written (the trace's own list is sorted by time, which a marker
 * written late could enter anywhere in). */
static void read_marks(struct pipe *p, const struct kft_trace *tr)
{
	char path[4200];
	struct kft_mark m;
	int fd;

	snprintf(path, sizeof(path), "%s/marks", p->dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	while (pread(fd, &m, sizeof(m), (off_t)(p->marks_read * sizeof(m))) == (ssize_t)sizeof(m)) {
		if (m.len > KFT_MARK_TEXT)
			m.len = KFT_MARK_TEXT;
		if (p->layout)
			kft_view_ftrace_mark(stdout, tr, &m, &p->ft);
		else
			kft_view_log_mark_row(stdout, &m, kft_trace_base_ns(tr), &p->log);
		p->marks_read++;
		p->printed++;
	}
	close(fd);
}

/* What the thread file holds past where we were: 0, or -1 out of memory.
 * *again: a record was read too early (see above). With last, the calls
 * still open come too. */
static int read_thread(struct pipe *p, const struct kft_trace *tr, struct kft_symbolizer *sz,
		       const struct kft_thread_file *th, bool last, bool *again)
{
	struct kft_read_progress *s = kft_read_progress_of(&p->seen, th->name);
	uint64_t oldest = kft_thread_oldest(th), end = oldest + th->nrecs;

	if (!s)
		return -1;
	if (s->next < oldest)
		s->next = oldest;	/* a ring overwrote what we had not read */
	for (; s->next < end; s->next++) {
		struct kft_call c;

		if (given_back(th, th->first + (s->next - oldest))) {
			*again = true;
			break;
		}
		/* indented as recorded: the nesting is not built here */
		kft_thread_call(th, s->next - oldest, KFT_DEPTH_RECORDED, &c);
		print_call(p, tr, sz, &c);
	}
	if (last && s->next == end) {
		for (uint64_t f = 0; f < th->nframes; f++) {
			struct kft_call c;

			if (!(th->frames[f].flags & KFT_FRAME_LOGGED))
				continue;
			kft_thread_call(th, th->nrecs + f, KFT_DEPTH_RECORDED, &c);
			print_call(p, tr, sz, &c);
		}
		s->next = UINT64_MAX;	/* done */
	}
	return 0;
}

/* The trace's memory maps and saved symbols as they stand: their number
 * and sizes folded together (a new process image, a library opened and a
 * finished trace's symbols each change it). */
static uint64_t maps_now(const char *dir)
{
	uint64_t sig = 0;
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if ((!strncmp(de->d_name, KFT_MAPS_PREFIX, strlen(KFT_MAPS_PREFIX)) || !strcmp(de->d_name, "symbols")) &&
		    !fstatat(dirfd(d), de->d_name, &st, 0))
			sig = sig * 1000003 + (uint64_t)st.st_size + 1;
	closedir(d);
	return sig;
}

/* The names, made anew only when the memory maps changed: making them
 * reads every object's symbol table, too much for each poll. */
static struct kft_symbolizer *names_for(struct pipe *p)
{
	uint64_t now = maps_now(p->dir);
	struct kft_error err;

	if (p->sz && now == p->maps_seen)
		return p->sz;
	kft_symbolizer_free(p->sz);
	p->sz = kft_symbolizer_new(p->dir, &err);
	if (p->sz && kft_cli_no_demangle)
		kft_symbolizer_set_demangle(p->sz, false);
	p->maps_seen = now;
	return p->sz;
}

/* One pass over the trace as it is now: 1 when the program has ended
 * (and, with last, all is printed), 0 to poll again, -1 on an error. */
static int poll_once(struct pipe *p, bool last, bool *again)
{
	struct kft_symbolizer *sz;
	struct kft_trace tr;
	struct kft_error err;
	volatile int ret = 0;

	if (kft_trace_open(&tr, p->dir, &err))
		return 0;	/* no thread file yet, say: wait */
	if (tr.ctl.ended_ns && !last) {
		kft_trace_close(&tr);
		return 1;
	}
	sz = names_for(p);
	if (sigsetjmp(cut_down, 1)) {
		*again = true;
		ret = 0;
	} else {
		reading = 1;
		ret = tr.ctl.ended_ns ? 1 : 0;
		read_marks(p, &tr);
		for (size_t i = 0; i < tr.nthreads && !interrupted; i++)
			if (read_thread(p, &tr, sz, &tr.threads[i], last, again)) {
				ret = -1;
				break;
			}
	}
	reading = 0;
	fflush(stdout);
	/* (what the names could not be made of: once, as the other views
	 * say it when they open the trace) */
	kft_cli_symbol_warnings(sz);
	kft_trace_close(&tr);
	return ret;
}

/* Wait until kft record has finished the trace: it holds the lock. */
static void wait_finished(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	while (flock(fd, LOCK_SH) && errno == EINTR && !interrupted)
		;
	close(fd);
}

static int parse(int argc, char **argv, struct pipe *p)
{
	static const struct option longopts[] = {
		{ "tracer", required_argument, NULL, 't' },
		{ "ns", no_argument, NULL, 'n' },
		{ "no-demangle", no_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	kft_ftrace_opts_init(&p->ft);
	while ((c = getopt_long(argc, argv, "t:", longopts, NULL)) != -1) {
		if (c == 't' && !strcmp(optarg, "log")) {
			p->layout = 0;
		} else if (c == 't' && !strcmp(optarg, "function")) {
			p->layout = 1;
			p->ft.tracer = KFT_FTRACE_FUNCTION;
		} else if (c == 't' && !strcmp(optarg, "function_graph")) {
			p->layout = 1;
			p->ft.tracer = KFT_FTRACE_GRAPH;
		} else if (c == 't') {
			return kft_cli_fail("pipe: unknown layout '%s' (log, function or "
					    "function_graph)",
					    optarg);
		} else if (c == 'n') {
			p->log.ns = true;
		} else if (c == 'D') {
			kft_cli_no_demangle = true;
		} else {
			kft_cli_usage_error(usage);
			return 2;
		}
	}
	if (argc - optind > 1)
		return kft_cli_fail("pipe: one trace directory or PID at most");
	return 0;
}

int kft_cmd_pipe(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct pipe p = { 0 };
	struct kft_error err;
	bool last = false;
	char dir[4096];
	int ret;

	if (kft_cli_wants_help(argc, argv, usage))
		return 0;
	if ((ret = parse(argc, argv, &p)))
		return ret;
	if (kft_cli_said(kft_trace_target(optind < argc ? argv[optind] : KFT_DEFAULT_DIR, dir,
					  sizeof(dir), &err),
			 &err))
		return 1;
	p.dir = dir;
	if (kft_cli_trace_missing(dir, ""))
		return 1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_bus;
	sigaction(SIGBUS, &sa, NULL);
	if (p.layout)
		kft_view_ftrace_header(stdout, &p.ft);
	else
		kft_view_log_columns(stdout, &p.log);
	while (!interrupted) {
		bool again = false;
		uint64_t before = p.printed;

		ret = poll_once(&p, last, &again);
		if (ret < 0) {
			kft_cli_fail("pipe: out of memory");
			break;
		}
		if (ret == 1 && last && !again)
			break;
		if (ret == 1 && !last) {
			wait_finished(dir);
			last = true;
			continue;
		}
		/* a reader of the whole trace each time: not too often */
		if (!again)
			kft_nap_ms(p.printed == before ? 50 : 20);
	}
	kft_read_progress_free(&p.seen);
	kft_symbolizer_free(p.sz);
	fflush(stdout);
	return ret < 0 ? 1 : 0;
}
