// SPDX-License-Identifier: LGPL-2.1
/*
 * Joining a trace: `kft record` puts KFT_DIR in the environment and this
 * library in LD_PRELOAD (or, for a program running already, has it loaded
 * and calls kft_attach). Each process image (start, fork child, exec)
 * maps the shared control file, loads the config and resolves its
 * function names in its own memory (resolve.c), and saves its memory map
 * for the symbolizer.
 */
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "../format/trace-files.h"
#include "runtime.h"

static KFT_NOTRACE int map_control(void)
{
	struct kft_control *ctl;
	uint64_t tsc_mult = 0;
	struct stat st;
	int fd = openat(kft_dir(), KFT_CONTROL_FILE, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(*ctl)) {
		close(fd);
		return -1;
	}
	ctl = mmap(NULL, sizeof(*ctl), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if ((size_t)st.st_size >= KFT_CONTROL_TSC_MULT_OFF + sizeof(tsc_mult) &&
	    pread(fd, &tsc_mult, sizeof(tsc_mult), KFT_CONTROL_TSC_MULT_OFF) != sizeof(tsc_mult))
		tsc_mult = 0;
	close(fd);
	if (ctl == MAP_FAILED)
		return -1;
	if (memcmp(ctl->magic, KFT_CONTROL_MAGIC, sizeof(KFT_CONTROL_MAGIC)) ||
	    ctl->version != KFT_FORMAT_VERSION || ctl->size != sizeof(*ctl)) {
		munmap(ctl, sizeof(*ctl));
		return -1;
	}
	kft_rt.ctl = ctl;
	kft_clock_init(ctl->clock_base_ns, tsc_mult);
	return 0;
}

static KFT_NOTRACE void new_session(void)
{
	kft_rt.session = __atomic_fetch_add(&kft_rt.ctl->next_session, 1, __ATOMIC_RELAXED);
	kft_rt.thread_seq = 0;
}

static KFT_NOTRACE void forked_child(void)
{
	struct kft_tls *t = &kft_tls;

	kft_own_alloc_forked();
	if (kft_rt.ready != 1)
		return;
	t->busy = 1;
	/* the child's memory map is its parent's: its thread files say whose,
	 * and it saves one of its own only once that changes (maps.c) */
	kft_rt.parent_session = kft_rt.session;
	kft_rt.forked_ns = kft_now();
	new_session();
	/* the helper thread did not survive fork; a child stays single-threaded
	 * (it may exec, or need to be alone), so it does without one */
	kft_helper_stop();
	kft_patch_forked();
	kft_plt_forked();
	t->prefault_slot = 0;
	kft_fibers_forked();
	kft_thread_setup_forked(t);
	t->busy = 0;
}

/* Just before fork, in the forking thread: its frames as they are now,
 * for the child; the parent lets them go after. */
static KFT_NOTRACE void forking(void)
{
	if (kft_rt.ready == 1)
		kft_thread_before_fork(&kft_tls);
}

static KFT_NOTRACE void forked_parent(void)
{
	kft_thread_after_fork(&kft_tls);
}

static int kft_runtime_init_held(void);

/*
 * A -pg program keeps its profiling timer across exec, and SIGPROF kills
 * until its start-up code handles it again; at exit, gmon turns its own
 * handler off and puts back the action it found and the inherited timer.
 * ITIMER_PROF counts the CPU time of every thread, the helper's too, so
 * under kft that timer runs out sooner, and it did kill programs between
 * our set-up and gmon's, or while gmon wrote gmon.out. So a SIGPROF nobody
 * handles is ignored from our set-up on: gmon finds that and puts it back.
 */
static KFT_NOTRACE bool hold_sigprof(struct sigaction *old)
{
	struct sigaction ign;
	struct itimerval it;

	if (getitimer(ITIMER_PROF, &it) || (!it.it_value.tv_sec && !it.it_value.tv_usec))
		return false;
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	if (sigaction(SIGPROF, NULL, old) || old->sa_handler != SIG_DFL)
		return false;
	return !sigaction(SIGPROF, &ign, NULL);
}

static KFT_NOTRACE void at_exit(void)
{
	struct sigaction prof;

	if (kft_rt.ready != 1)
		return;
	hold_sigprof(&prof);	/* the process is ending: no need to give it back */
	kft_save_maps(false);	/* catches libraries mapped since start */
	kft_thread_trim(&kft_tls);
	kft_fibers_thread_exit();
	kft_static_run_end();
}

KFT_NOTRACE int kft_runtime_init(void)
{
	struct sigaction prof;
	bool held = hold_sigprof(&prof);
	int ret = kft_runtime_init_held();

	if (held && ret)
		sigaction(SIGPROF, &prof, NULL);	/* not traced: as we found it */
	return ret;
}

static KFT_NOTRACE int join_trace(const char *dir, bool attaching);

static KFT_NOTRACE int kft_runtime_init_held(void)
{
	int expected = 0;
	const char *dir;

	if (!__atomic_compare_exchange_n(&kft_rt.ready, &expected, 2, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return kft_rt.ready == 1 ? 0 : -1;
	dir = kft_static_run_dir();	/* a program made with kft embed, alone */
	if (!dir)
		dir = kft_env("KFT_DIR");
	return join_trace(dir, false);
}

/*
 * kft record -p: the library was loaded into a running program (by
 * dlopen, through ptrace), found no trace to join, and is told one now.
 * Other threads run meanwhile: the sites become calls only by live
 * rewriting, and the helper thread is needed to turn them back into NOPs
 * when the run ends. Returns 0, or what kft record says:
 * KFT_ATTACH_*.
 */
KFT_EXPORT KFT_NOTRACE int kft_attach(const char *dir)
{
	struct kft_tls *t = &kft_tls;
	int expected = -1, ret;

	if (!__atomic_compare_exchange_n(&kft_rt.ready, &expected, 2, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return KFT_ATTACH_TRACED;
	t->busy = 1;
	ret = join_trace(dir, true);
	t->busy = 0;
	return ret ? kft_rt.attach_error : 0;
}

static KFT_NOTRACE int join_trace(const char *dir, bool attaching)
{
	kft_rt.attach_error = KFT_ATTACH_TRACE;
	if (!dir || !*dir)
		goto disable;
	if (kft_dir_open(dir))
		goto disable;
	if (map_control())
		goto disable;
	kft_load_config();
	new_session();
	kft_save_maps(false);
	kft_calibrate(kft_rt.ctl->mode & KFT_MODE_COMPENSATE);
	kft_helper_start();
	if (attaching) {
		/* patched under running threads, and unpatched by the helper */
		kft_rt.attached = true;
		kft_rt.attach_error = !kft_helper_running() ? KFT_ATTACH_NO_HELPER
				      : !kft_patch_live()   ? KFT_ATTACH_NO_LIVE
							    : 0;
		if (kft_rt.attach_error)
			goto undo;
	}
	kft_patch_all();
	/* (attaching, kft record holds the program's other threads still
	 * meanwhile, and gives the bytes back itself) */
	kft_dynamic_patch();
	if (kft_rt.ctl->mode & KFT_MODE_LIBCALLS)
		kft_plt_hook_all();
	kft_hooks_timed = kft_rt.ctl->mode & KFT_MODE_COMPENSATE;
	/* compressing on another CPU slows the traced threads (on some
	 * machines by a third), which no compensation can know of: with
	 * --compensate, the records are compressed once the program ends */
	kft_rt.compress = !(kft_rt.ctl->mode & (KFT_MODE_NO_COMPRESS | KFT_MODE_COMPENSATE));
	kft_update_plain();
	/* the first process image tells what it measured */
	if (!__atomic_load_n(&kft_rt.ctl->hook_cost_ns, __ATOMIC_RELAXED)) {
		kft_rt.ctl->hook_inside_ns = kft_rt.inside_ns;
		kft_rt.ctl->comp_gap_ps = kft_rt.gap_ps;
		kft_rt.ctl->comp_spread_ps = kft_rt.gap_spread_ps;
		kft_rt.ctl->comp_taken_ps = kft_rt.taken_ps;
		__atomic_store_n(&kft_rt.ctl->hook_cost_ns, kft_rt.pair_ns, __ATOMIC_RELEASE);
	}
	pthread_atfork(forking, forked_parent, forked_child);
	atexit(at_exit);
	__atomic_store_n(&kft_rt.ready, 1, __ATOMIC_RELEASE);
	return 0;
undo:
	kft_helper_quit();
disable:
	__atomic_store_n(&kft_rt.ready, -1, __ATOMIC_RELEASE);
	return -1;
}

static KFT_NOTRACE __attribute__((constructor)) void kft_constructor(void)
{
	struct kft_tls *t = &kft_tls;

	t->busy = 1;
	kft_runtime_init();
	t->busy = 0;
}

/* (dl_iterate_phdr's first call: how many objects were ever loaded) */
static KFT_NOTRACE int count_adds(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	*(unsigned long long *)arg = info->dlpi_adds;
	return 1;
}

/*
 * Every shared object's _init (the C runtime's crti.o) calls
 * __gmon_start__, where one is defined, before the object's own
 * constructors. The C library is set up first, and kft's constructor
 * comes after those of the program's libraries, which may call functions
 * whose entries are to be patched (a C++ library's static objects): kft
 * defines __gmon_start__, and sets up at the first _init after the C
 * library's, then patches the libraries a dlopen adds before their
 * constructors run (the rest, names and GOT slots, after dlopen returns:
 * inside dlopen the loader's lock is held, and the steps that look
 * symbols up take it too). (A -pg program's own, gprof's, is not in its
 * dynamic symbol table: libraries find kft's.)
 */
KFT_EXPORT KFT_NOTRACE void __gmon_start__(void)
{
	/* objects ever loaded, when last looked at: one look per lot (at
	 * start, or a dlopen), not per object's _init (under the loader's
	 * lock: no other thread's _init meanwhile) */
	static unsigned long long seen_adds;
	struct kft_tls *t = &kft_tls;
	unsigned long long adds = 0;

	if (t->busy)
		return;
	t->busy = 1;
	dl_iterate_phdr(count_adds, &adds);
	if (!kft_rt.ready) {
		kft_runtime_init();
	} else if (kft_rt.ready == 1 && !kft_rt.attached && adds != seen_adds) {
		kft_patch_all();
		kft_dynamic_patch_opened();
	}
	seen_adds = adds;
	t->busy = 0;
}
