// SPDX-License-Identifier: LGPL-2.1
/*
 * Every other thread of the program held still, in-process, as a
 * garbage collector stops the world: each is sent SIGURG (whose default
 * action is to ignore it, so a late one does no harm) with a value that
 * names kft, and its handler notes where the thread was and waits,
 * every signal blocked, until it is let go. A thread asleep in a system
 * call is not signalled (its nanosleep or poll would end early, EINTR):
 * where it entered the kernel is noted instead, from /proc, and the
 * writer must allow for its waking (dynamic.c writes int3s first, then
 * holds those that woke meanwhile: kft_hold_woken). The threads
 * are listed from /proc/self/task again until no new one is found.
 * kft's helper runs none of the program's code and is left alone; a
 * running thread that blocks SIGURG is looked at again (a thread being
 * made blocks every signal a moment), and if it still does after a
 * second, nothing is held (-1), as when one does not answer in time.
 *
 * While the threads are held the holder must not take a lock one of
 * them may hold (the loader's, malloc's): it makes system calls only,
 * and this file reads the task list with getdents64 into a buffer on the
 * stack and the threads' files by hand.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#include "runtime.h"

#define HOLD_SIG SIGURG
#define ANSWER_NS 1000000000LL	/* how long the threads have to answer */

static pthread_mutex_t hold_lock = PTHREAD_MUTEX_INITIALIZER;
static int holding;		/* the hold's number while one is on, else 0 */
static int released;		/* the last hold's number once let go (a futex) */
static int generation;
static unsigned int nslots;	/* held_pc's slots the handlers took */
static unsigned int nheld;	/* handlers that have noted their thread */
static uintptr_t held_pc[KFT_HELD_MAX];	/* where the handlers found them */
static uintptr_t asleep_pc[KFT_HELD_MAX];	/* where the sleepers entered the kernel */
static int asleep_tid[KFT_HELD_MAX];
static int seen[KFT_HELD_MAX];	/* the threads looked at */
static size_t nseen, nsignalled, nasleep;

/* Where the thread a signal interrupted was. */
static KFT_NOTRACE uintptr_t pc_of(const void *uctx)
{
#if defined(__x86_64__)
	return (uintptr_t)((const ucontext_t *)uctx)->uc_mcontext.gregs[REG_RIP];
#else
	(void)uctx;
	return 0;	/* (nothing is patched under threads elsewhere yet) */
#endif
}

static KFT_NOTRACE void on_hold(int sig, siginfo_t *info, void *uctx)
{
	sigset_t all;
	int gen, saved;
	unsigned int i;

	if (info->si_code != SI_QUEUE || info->si_pid != getpid() ||
	    info->si_value.sival_ptr != (void *)&holding) {
		kft_signal_pass(sig, info, uctx);	/* the program's */
		return;
	}
	gen = __atomic_load_n(&holding, __ATOMIC_ACQUIRE);
	if (!gen)
		return;		/* late: that hold is over */
	saved = errno;
	/* every signal blocked until the return puts the thread's mask back
	 * (here, not in the action's mask: the program's SIGURG handler runs
	 * with its own); a handler that runs before it ends before the
	 * thread counts as held */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	/* the pc stored before the count that the holder waits for */
	i = __atomic_fetch_add(&nslots, 1, __ATOMIC_RELAXED);
	if (i < KFT_HELD_MAX)
		held_pc[i] = pc_of(uctx);
	__atomic_fetch_add(&nheld, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&released, __ATOMIC_ACQUIRE) != gen)
		syscall(SYS_futex, &released, FUTEX_WAIT_PRIVATE, released, NULL, NULL, 0);
	errno = saved;
}

/* /proc/self/task/TID/ FILE read into buf (size bytes, NUL-ended) with
 * system calls only (snprintf may allocate, and the holder takes no
 * lock): its length, or -1 (ENOENT: the thread is gone). */
static KFT_NOTRACE ssize_t read_task_file(int tid, const char *file, char *buf, size_t size)
{
	char path[64], digits[12];
	size_t n = 0, len = 16;
	ssize_t got;
	int fd;

	do
		digits[n++] = (char)('0' + tid % 10);
	while ((tid /= 10) && n < sizeof(digits));
	memcpy(path, "/proc/self/task/", len);
	while (n)
		path[len++] = digits[--n];
	path[len++] = '/';
	memcpy(path + len, file, strlen(file) + 1);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	got = read(fd, buf, size - 1);
	close(fd);
	if (got < 0)
		return -1;
	buf[got] = '\0';
	return got;
}

static KFT_NOTRACE uint64_t hex(const char **p)
{
	uint64_t v = 0;

	for (; (**p >= '0' && **p <= '9') || (**p >= 'a' && **p <= 'f'); (*p)++)
		v = v << 4 | (uint64_t)(**p <= '9' ? **p - '0' : **p - 'a' + 10);
	return v;
}

enum { TAKES_SIGNAL, ASLEEP, GONE, UNHOLDABLE };

/*
 * How thread tid is to be held. Asleep in a system call, it is not
 * signalled (a signal would end a nanosleep or a poll early, with EINTR):
 * where it entered the kernel (*pc) is all that is needed, as it runs
 * none of a library opened just now. Else it is signalled, unless it
 * blocks HOLD_SIG.
 */
static KFT_NOTRACE int look_at(int tid, uintptr_t *pc)
{
	char buf[2048];
	const char *state, *blocked, *last;
	bool takes;

	if (read_task_file(tid, "status", buf, sizeof(buf)) < 0)
		return errno == ENOENT ? GONE : UNHOLDABLE;
	state = strstr(buf, "\nState:\t");
	blocked = strstr(buf, "\nSigBlk:\t");
	if (!state || !blocked)
		return UNHOLDABLE;
	blocked += 9;
	takes = !(hex(&blocked) & (1ULL << (HOLD_SIG - 1)));
	if ((state[8] != 'S' && state[8] != 'D') ||
	    read_task_file(tid, "syscall", buf, sizeof(buf)) <= 0 || !strncmp(buf, "running", 7))
		return takes ? TAKES_SIGNAL : UNHOLDABLE;
	/* "NR ARGS... SP PC": the last number */
	last = strrchr(buf, ' ');
	if (!last || strncmp(last, " 0x", 3))
		return takes ? TAKES_SIGNAL : UNHOLDABLE;
	last += 3;
	*pc = (uintptr_t)hex(&last);
	return ASLEEP;
}

static KFT_NOTRACE bool was_seen(int tid)
{
	for (size_t i = 0; i < nseen; i++)
		if (seen[i] == tid)
			return true;
	return false;
}

/* Send thread tid the hold: 1, 0 if it has ended, -1. */
static KFT_NOTRACE int signal_one(int tid)
{
	siginfo_t si;

	/* (SIGURG is kft's from the first thread to hold: a program that
	 * never has one keeps it as it was) */
	if (kft_signal_own(HOLD_SIG, on_hold))
		return -1;
	memset(&si, 0, sizeof(si));
	si.si_signo = HOLD_SIG;
	si.si_code = SI_QUEUE;
	si.si_pid = getpid();
	si.si_uid = getuid();
	si.si_value.sival_ptr = (void *)&holding;
	if (syscall(SYS_rt_tgsigqueueinfo, getpid(), tid, HOLD_SIG, &si))
		return errno == ESRCH ? 0 : -1;		/* 0: it ended */
	nsignalled++;
	return 1;
}

/* Hold each thread of the list not looked at yet (but this one and the
 * helper): how many were signalled, or -1 if one cannot be held;
 * *later: one blocks SIGURG now (as a thread being made does a moment),
 * to be looked at again. */
static KFT_NOTRACE int signal_new(int dirfd, bool *later)
{
	char buf[4096];
	int self = gettid(), helper = kft_helper_tid(), added = 0;
	long len;

	if (lseek(dirfd, 0, SEEK_SET) < 0)
		return -1;
	while ((len = syscall(SYS_getdents64, dirfd, buf, sizeof(buf))) > 0) {
		for (long at = 0; at < len;) {
			const char *name = buf + at + 19;	/* linux_dirent64's d_name */
			unsigned short reclen;
			uintptr_t pc;
			int tid = 0;

			memcpy(&reclen, buf + at + 16, sizeof(reclen));
			at += reclen;
			if (*name < '1' || *name > '9')
				continue;
			for (; *name >= '0' && *name <= '9'; name++)
				tid = tid * 10 + (*name - '0');
			if (tid == self || tid == helper || was_seen(tid))
				continue;
			if (nseen == KFT_HELD_MAX)
				return -1;
			switch (look_at(tid, &pc)) {
			case GONE:
				continue;
			case UNHOLDABLE:
				*later = true;
				continue;
			case ASLEEP:
				seen[nseen++] = tid;
				asleep_tid[nasleep] = tid;
				asleep_pc[nasleep++] = pc;
				continue;
			}
			seen[nseen++] = tid;
			switch (signal_one(tid)) {
			case 1:
				added++;
				break;
			case -1:
				return -1;
			}
		}
	}
	return len < 0 ? -1 : added;
}

static KFT_NOTRACE int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Whether every thread signalled has answered, within the deadline. */
static KFT_NOTRACE bool answered(int64_t deadline)
{
	struct timespec nap = { 0, 20000 };

	while (__atomic_load_n(&nheld, __ATOMIC_ACQUIRE) < nsignalled) {
		if (now_ns() > deadline)
			return false;
		nanosleep(&nap, NULL);
	}
	return true;
}

/* Where the threads are, for the holder. */
static KFT_NOTRACE void tell(struct kft_held *held)
{
	/* (nseen, at most KFT_HELD_MAX, counts both) */
	memcpy(held->pc, held_pc, nsignalled * sizeof(held->pc[0]));
	memcpy(held->pc + nsignalled, asleep_pc, nasleep * sizeof(held->pc[0]));
	held->n = nsignalled + nasleep;
	held->asleep = nasleep;
}

KFT_NOTRACE int kft_hold_threads(struct kft_held *held)
{
	int64_t deadline;
	int dirfd, gen, added;

	pthread_mutex_lock(&hold_lock);
	dirfd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		pthread_mutex_unlock(&hold_lock);
		return -1;
	}
	gen = ++generation ? generation : ++generation;
	nseen = nsignalled = nasleep = 0;
	__atomic_store_n(&nslots, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&nheld, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&holding, gen, __ATOMIC_RELEASE);
	deadline = now_ns() + ANSWER_NS;
	/* until a listing finds no thread not held yet */
	for (;;) {
		bool later = false;

		added = signal_new(dirfd, &later);
		if (added < 0 || !answered(deadline) || (!added && !later))
			break;
		if (later && now_ns() > deadline) {
			added = -1;
			break;
		}
		if (later)
			nanosleep(&(struct timespec){ 0, 50000 }, NULL);
	}
	close(dirfd);
	if (added != 0 || __atomic_load_n(&nheld, __ATOMIC_ACQUIRE) != nsignalled) {
		kft_release_threads();
		return -1;
	}
	tell(held);
	return 0;
}

KFT_NOTRACE int kft_hold_woken(struct kft_held *held)
{
	int64_t deadline = now_ns() + ANSWER_NS;
	size_t still = 0;

	for (size_t i = 0; i < nasleep; i++) {
		uintptr_t pc;

		switch (look_at(asleep_tid[i], &pc)) {
		case GONE:
			continue;
		case ASLEEP:
			asleep_tid[still] = asleep_tid[i];
			asleep_pc[still++] = pc;
			continue;
		case UNHOLDABLE:
			return -1;
		}
		if (signal_one(asleep_tid[i]) < 0)
			return -1;
	}
	nasleep = still;
	if (!answered(deadline))
		return -1;
	tell(held);
	return 0;
}

KFT_NOTRACE void kft_release_threads(void)
{
	int gen = __atomic_load_n(&holding, __ATOMIC_ACQUIRE);

	__atomic_store_n(&holding, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&released, gen, __ATOMIC_RELEASE);
	syscall(SYS_futex, &released, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
	pthread_mutex_unlock(&hold_lock);
}
