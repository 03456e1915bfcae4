// SPDX-License-Identifier: LGPL-2.1
/* The public API of kft.h: the run state machine, driven by the program. */
#include "../../include/kft.h"
#include "../format/control.h"
#include "runtime.h"

static KFT_NOTRACE bool attached(void)
{
	if (!kft_rt.ready)
		kft_runtime_init();
	return kft_rt.ready == 1;
}

KFT_EXPORT KFT_NOTRACE int kft_start(void)
{
	if (!attached())
		return -1;
	return kft_control_start(kft_rt.ctl, KFT_HOW_USER, kft_now(), 0,
				 kft_rt.session, 0) ? 0 : -1;
}

KFT_EXPORT KFT_NOTRACE int kft_stop(void)
{
	if (!attached())
		return -1;
	return kft_control_stop(kft_rt.ctl, KFT_HOW_USER, kft_now(), 0,
				kft_rt.session, 0) ? 0 : -1;
}

KFT_EXPORT KFT_NOTRACE int kft_pause(void)
{
	if (!attached())
		return -1;
	kft_control_pause(kft_rt.ctl, true);
	return 0;
}

KFT_EXPORT KFT_NOTRACE int kft_resume(void)
{
	if (!attached())
		return -1;
	kft_control_pause(kft_rt.ctl, false);
	return 0;
}

KFT_EXPORT KFT_NOTRACE int kft_prime(void)
{
	if (!attached())
		return -1;
	return kft_control_prime(kft_rt.ctl) ? 0 : -1;
}
