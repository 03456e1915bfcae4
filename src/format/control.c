// SPDX-License-Identifier: LGPL-2.1
#include <string.h>

#include "../common/compiler.h"
#include "control.h"

KFT_NOTRACE void kft_control_init(struct kft_control *ctl, uint64_t clock_base_ns, uint32_t mode,
				  bool primed)
{
	memset(ctl, 0, sizeof(*ctl));
	memcpy(ctl->magic, KFT_CONTROL_MAGIC, sizeof(KFT_CONTROL_MAGIC));
	ctl->version = KFT_FORMAT_VERSION;
	ctl->size = sizeof(*ctl);
	ctl->clock_base_ns = clock_base_ns;
	ctl->state = primed ? KFT_STATE_PRIMED : 0;
	ctl->run_id = 1;
	ctl->run_loaded = 1;
	ctl->mode = mode;
	ctl->first_start_ns = UINT64_MAX;
	ctl->next_session = 1;
}

static KFT_NOTRACE void note_fired(struct kft_fired *f, uint32_t how, uint64_t now, uint64_t fn,
				   uint32_t session, uint64_t usecs)
{
	f->how = how;
	f->session = session;
	f->mark_ns = now;
	f->func = fn;
	f->usecs = usecs;
}

KFT_NOTRACE bool kft_control_start(struct kft_control *ctl, uint32_t how, uint64_t now, uint64_t fn,
				   uint32_t session, uint64_t usecs)
{
	uint64_t st = __atomic_load_n(&ctl->state, __ATOMIC_ACQUIRE);
	uint64_t never = UINT64_MAX;

	for (;;) {
		if (st & (KFT_STATE_TRIGGERED | KFT_STATE_COMPLETE))
			return false;
		if (how != KFT_HOW_USER && !(st & KFT_STATE_PRIMED))
			return false;
		if (__atomic_compare_exchange_n(&ctl->state, &st, st | KFT_STATE_TRIGGERED, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			break;
	}
	note_fired(&ctl->start, how, now, fn, session, usecs);
	__atomic_compare_exchange_n(&ctl->first_start_ns, &never, now, false, __ATOMIC_RELAXED,
				    __ATOMIC_RELAXED);
	return true;
}

KFT_NOTRACE bool kft_control_stop(struct kft_control *ctl, uint32_t how, uint64_t now, uint64_t fn,
				  uint32_t session, uint64_t usecs)
{
	uint64_t st = __atomic_load_n(&ctl->state, __ATOMIC_ACQUIRE);
	bool rearm = (ctl->mode & KFT_MODE_AUTOREPEAT) && how != KFT_HOW_LOG_FULL &&
		     how != KFT_HOW_USER;

	for (;;) {
		uint64_t gen = st >> KFT_STATE_GEN_SHIFT;
		uint64_t next;

		if (st & KFT_STATE_COMPLETE)
			return false;
		/* a user stop before the start completes the run, as in KFT */
		if (how != KFT_HOW_USER && !(st & KFT_STATE_TRIGGERED))
			return false;
		if (rearm)
			next = KFT_STATE_PRIMED | (st & KFT_STATE_PAUSED);
		else
			next = (st & KFT_STATE_FLAGS) | KFT_STATE_COMPLETE;
		next |= (gen + 1) << KFT_STATE_GEN_SHIFT;
		if (__atomic_compare_exchange_n(&ctl->state, &st, next, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			break;
	}
	note_fired(&ctl->stop, how, now, fn, session, usecs);
	return true;
}

KFT_NOTRACE bool kft_control_prime(struct kft_control *ctl)
{
	uint64_t st = __atomic_load_n(&ctl->state, __ATOMIC_ACQUIRE);

	for (;;) {
		if (st & (KFT_STATE_TRIGGERED | KFT_STATE_COMPLETE))
			return false;
		if (__atomic_compare_exchange_n(&ctl->state, &st, st | KFT_STATE_PRIMED, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return true;
	}
}

KFT_NOTRACE bool kft_control_pause(struct kft_control *ctl, bool paused)
{
	uint64_t st = __atomic_load_n(&ctl->state, __ATOMIC_ACQUIRE);

	for (;;) {
		uint64_t next = paused ? st | KFT_STATE_PAUSED : st & ~KFT_STATE_PAUSED;

		if (next == st)
			return false;
		if (__atomic_compare_exchange_n(&ctl->state, &st, next, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return true;
	}
}

KFT_NOTRACE void kft_control_new_run(struct kft_control *ctl, bool primed)
{
	uint64_t st = __atomic_load_n(&ctl->state, __ATOMIC_ACQUIRE);
	uint64_t next;

	memset(&ctl->start, 0, sizeof(ctl->start));
	memset(&ctl->stop, 0, sizeof(ctl->stop));
	do
		next = (st & ~KFT_STATE_FLAGS) | (st & KFT_STATE_PAUSED) |
		       (primed ? KFT_STATE_PRIMED : 0);
	while (!__atomic_compare_exchange_n(&ctl->state, &st, next, false, __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE));
}
