/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The run state machine of KFT (loaded -> primed -> triggered -> complete),
 * kept in the shared control file so that every thread and process of a
 * trace, and `kft start|stop|prime`, see one run. Transitions are a
 * compare-and-swap on one word: two threads cannot both fire a trigger.
 * Each stop bumps the generation; a call logged in an earlier generation
 * ends as unfinished (-1).
 */
#ifndef KFT_CONTROL_H
#define KFT_CONTROL_H

#include <stdbool.h>
#include <stdint.h>

#include "trace-format.h"

/* Why a run moved; the values of enum kft_trigger_type. */
#define KFT_HOW_ENTRY		1
#define KFT_HOW_EXIT		2
#define KFT_HOW_TIME		3
#define KFT_HOW_USER		4
#define KFT_HOW_LOG_FULL	5

/* Fill a fresh control block. */
void kft_control_init(struct kft_control *ctl, uint64_t clock_base_ns, uint32_t mode, bool primed);

/* Start the run. A trigger (how != USER) needs it primed. Returns true if
 * this call started it. */
bool kft_control_start(struct kft_control *ctl, uint32_t how, uint64_t now, uint64_t fn,
		       uint32_t session, uint64_t usecs);

/* Stop the run (with autorepeat, re-arm it instead unless the log is full
 * or the user stopped it). Returns true if this call stopped it. */
bool kft_control_stop(struct kft_control *ctl, uint32_t how, uint64_t now, uint64_t fn,
		      uint32_t session, uint64_t usecs);

/* Arm the start trigger. Returns false if the run is running or complete. */
bool kft_control_prime(struct kft_control *ctl);

/* kft config: a new run after the old one stopped, primed or only
 * loaded; its start and stop marks cleared. Tracing off stays off, and
 * the stop generation stays as the stop left it. */
void kft_control_new_run(struct kft_control *ctl, bool primed);

/* Tracing off (paused) or on again, whatever the run's state, as
 * ftrace's tracing_on. Returns false if it already was so. */
bool kft_control_pause(struct kft_control *ctl, bool paused);

#endif
